package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	pathpkg "path"
	"path/filepath"
	"strings"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
)

// The root of a scan, which every output path is relative to, and the
// configuration that applies to it.

// scanRoot picks the root that output paths are relative to (README
// "Paths"): --root; else the checkout holding the scanned paths, found by
// walking up to a .git directory or file (git is not run); else the
// current directory when it holds them all; else the one scanned
// directory.
func scanRoot(flagRoot string, paths []string) (string, error) {
	if flagRoot != "" {
		return flagRoot, nil
	}
	targets := paths
	if len(targets) == 0 {
		targets = []string{"."}
	}
	dirs := make([]string, len(targets))
	for i, p := range targets {
		info, err := os.Stat(p)
		if err != nil {
			return "", err
		}
		if dirs[i], err = filepath.Abs(p); err != nil {
			return "", err
		}
		if !info.IsDir() {
			dirs[i] = filepath.Dir(dirs[i])
		}
	}
	holdsAll := func(root string) bool {
		for _, d := range dirs {
			if _, ok := inside(root, d); !ok {
				return false
			}
		}
		return true
	}
	if top := repoRoot(dirs[0]); top != "" && holdsAll(top) {
		return top, nil
	}
	if holdsAll(".") {
		return ".", nil
	}
	if len(dirs) == 1 {
		return dirs[0], nil
	}
	return ".", nil // Discover says which path is outside
}

// repoRoot returns the nearest directory from dir upward that has a .git
// entry (a directory, or a file in worktrees and submodules), or "".
func repoRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// withConfig applies --config, else the nearest .acg.yaml from the scanned
// directory up to the root (README "Configuration"), unless the snapshot
// holds it already (the root's, when the root itself is scanned: its
// errors are then reported with the analysis). --config is the user's own
// choice and is read wherever it is; a repository's .acg.yaml is read like
// every file of the tree, never through a link (a warning says so).
func withConfig(snap *incremental.Snapshot, root, path string, paths []string) (*incremental.Snapshot, []incremental.Warning, error) {
	var c *config.Config
	if path == "" {
		rel := findConfig(root, paths)
		if rel == "" || (rel == config.FileName && snap.File(config.FileName) != nil) {
			return snap, nil, nil
		}
		src, why, err := incremental.ReadInRoot(root, rel)
		var le *incremental.LinkError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return snap, nil, nil
		case errors.As(err, &le):
			return snap, []incremental.Warning{le.Warning(rel)}, nil
		case err != nil:
			return nil, nil, fmt.Errorf("config: %w", err)
		case why != "":
			return nil, nil, fmt.Errorf("the configuration is not valid:\n%s: %s", rel, why)
		}
		if c, err = config.Parse(rel, src); err != nil {
			return nil, nil, fmt.Errorf("the configuration is not valid:\n%w", err)
		}
		// The file ids in it are relative to its own directory.
		rebaseConfig(c, pathpkg.Dir(rel))
		return snap.WithConfig(c), nil, nil
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, nil, fmt.Errorf("the configuration is not valid:\n%w", err)
	}
	// Inside the root, name it like every other path of the output, and
	// read the file ids in it relative to its own directory.
	if rel, ok := inside(root, path); ok {
		c.Path = rel
		rebaseConfig(c, pathpkg.Dir(rel))
	}
	return snap.WithConfig(c), nil, nil
}

// findConfig returns the nearest .acg.yaml from the scanned directory (one
// path given; else the root) up to the root, relative to the root, or "".
// A link is found too, so that reading it gives its warning.
func findConfig(root string, paths []string) string {
	start := root
	if len(paths) == 1 {
		start = paths[0]
		if info, err := os.Stat(start); err == nil && !info.IsDir() {
			start = filepath.Dir(start)
		}
	}
	ar, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	dir, err := filepath.Abs(start)
	if err != nil {
		return ""
	}
	for {
		rel, ok := inside(ar, filepath.Join(dir, config.FileName))
		if !ok {
			return ""
		}
		if _, err := os.Lstat(filepath.Join(dir, config.FileName)); err == nil {
			return rel
		}
		if dir == ar {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// rebaseConfig makes the file ids (file#symbol) and rule paths of a config
// in directory dir (relative to the root) relative to the root, as the
// analysis names them: a config works the same whether its directory is
// scanned as the root or as part of a checkout.
func rebaseConfig(c *config.Config, dir string) {
	if dir == "." || dir == "" {
		return
	}
	id := func(s string) string {
		if strings.Contains(s, "#") && !strings.HasPrefix(s, "/") {
			return dir + "/" + s
		}
		return s
	}
	for i := range c.Tools {
		c.Tools[i].Tool = id(c.Tools[i].Tool)
	}
	for i := range c.Suppressions {
		c.Suppressions[i].Tool = id(c.Suppressions[i].Tool)
		c.Suppressions[i].Agent = id(c.Suppressions[i].Agent)
	}
	for name, pr := range c.Provers {
		for j, r := range pr.Rules {
			if !filepath.IsAbs(r.Path) {
				pr.Rules[j].Path = filepath.Join(filepath.FromSlash(dir), r.Path)
			}
		}
		c.Provers[name] = pr
	}
}

// inside returns p relative to root (slash-separated) when p is inside it.
func inside(root, p string) (string, bool) {
	ar, err1 := filepath.Abs(root)
	ap, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(ar, ap)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
