package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// UserFileEnv names the user's config file, replacing the default place.
const UserFileEnv = "ACG_CONFIG"

// UserProvers are the provers whose programs the user config can name.
var UserProvers = []string{"codeql", "opengrep", "semgrep"}

// User is the user's own configuration file, outside any repository. It
// holds what a scanned repository must never choose: the programs acg
// runs. Only
//
//	provers: {opengrep: {path: …}, semgrep: {path: …}, codeql: {path: …}}
//
// (and version: 1) may be written in it.
type User struct {
	// Path is the file as named to ParseUser.
	Path     string
	programs map[string]string
}

// UserPath is where the user's config file is: $ACG_CONFIG, else
// $XDG_CONFIG_HOME/acg/config.yaml, else ~/.config/acg/config.yaml (also on
// macOS, where the command-line tools' convention is ~/.config).
func UserPath() (string, error) {
	if p := os.Getenv(UserFileEnv); p != "" {
		return p, nil
	}
	// The XDG base directory spec: a relative value is invalid, ignore it.
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "acg", "config.yaml"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("user config: %w", err)
	}
	return filepath.Join(home, ".config", "acg", "config.yaml"), nil
}

// LoadUser reads the user's config file. A file that does not exist is no
// configuration: nil and no error.
func LoadUser(path string) (*User, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("user config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("user config %s: %w", path, err)
	}
	return ParseUser(path, data)
}

// ParseUser reads a user config; name is its path, against which relative
// program paths resolve. The error, if any, is Errors.
func ParseUser(name string, data []byte) (*User, error) {
	if len(data) > MaxSize {
		return nil, Errors{{File: name, Msg: fmt.Sprintf("%d bytes is over the %d byte limit for a config file", len(data), MaxSize)}}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, Errors{{File: name, Msg: "binary content: not a YAML file"}}
	}
	u := &User{Path: name, programs: map[string]string{}}
	p := &parser{file: name, c: &Config{}}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return u, nil
		}
		return nil, Errors{yamlError(name, err)}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return u, nil
	}
	p.fields(root, "the user config", map[string]func(*yaml.Node){
		"version": func(v *yaml.Node) {
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				p.errf(v, "version must be 1, not %s", kindName(v))
			}
		},
		"provers": func(v *yaml.Node) {
			handlers := map[string]func(*yaml.Node){}
			for _, name := range UserProvers {
				handlers[name] = func(x *yaml.Node) {
					p.fields(x, "provers."+name, map[string]func(*yaml.Node){
						"path": func(y *yaml.Node) {
							if s, ok := p.str(y, "provers."+name+".path"); ok {
								u.programs[name] = s
							}
						},
					})
				}
			}
			p.fields(v, "provers", handlers)
		},
	})
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
		return nil, p.errs
	}
	return u, nil
}

// Program is the executable the user named for a prover, or "" (then PATH
// decides). A bare name is left for a PATH lookup; ~/ is the home
// directory; any other relative path is relative to the config file, never
// to the directory acg happens to run in.
func (u *User) Program(prover string) string {
	if u == nil {
		return ""
	}
	p := u.programs[prover]
	switch {
	case p == "" || filepath.IsAbs(p) || !strings.ContainsAny(p, `/\`):
		return p
	case strings.HasPrefix(p, "~/"):
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, filepath.FromSlash(p[2:]))
		}
		return p
	}
	return filepath.Join(filepath.Dir(u.Path), filepath.FromSlash(p))
}
