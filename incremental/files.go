package incremental

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// MaxFileSize is the largest file extracted unless a scan sets its own
// limit (acg scan --max-file-size). Agent code is small; a larger file is
// generated or data and would only slow every analysis down.
const MaxFileSize = 2 << 20

// Warning kinds: why a file was not read in full. Each is reported as a
// notice in every output (README "Notices").
const (
	WarnTooLarge   = "too-large"
	WarnBinary     = "binary"
	WarnUnreadable = "unreadable"
	WarnExtraction = "extraction-failed"
	// WarnParseError is a config (MCP client config, Claude Code settings
	// or subagent, crew YAML) that does not parse or has the wrong shape:
	// what it says is missing from the analysis.
	WarnParseError = "parse-error"
)

// skipDirs are never descended into: VCS data, virtual environments,
// installed packages and caches hold no code of the project's own agents.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true, ".venv": true,
	"venv": true, ".tox": true, ".nox": true, "site-packages": true, ".mypy_cache": true, ".pytest_cache": true,
	".ruff_cache": true, ".idea": true, "dist": true, ".eggs": true,
}

// Warning is a file that was skipped or only partly read.
type Warning struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Line and Column place a parse error (1-based; 0 when unknown).
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", w.Path, w.Line, w.Column, w.Message)
	}
	return w.Path + ": " + w.Message
}

// skip says why a file is not extracted; the zero value means it is.
type skip struct{ kind, why string }

func (s skip) warning(rel string) Warning { return Warning{Path: rel, Kind: s.kind, Message: s.why} }

// Kind says which extractor reads a file, or "" when none does.
func Kind(rel string) string {
	base := filepath.Base(rel)
	switch {
	case strings.HasSuffix(base, ".py") || strings.HasSuffix(base, ".pyi"):
		return "python"
	}
	for _, k := range extraKinds {
		if kind := k(rel); kind != "" {
			return kind
		}
	}
	return ""
}

// extraKinds lets other file kinds register (configs, subagents, crews).
var extraKinds []func(rel string) string

// RegisterKind adds a file classifier.
func RegisterKind(f func(rel string) string) { extraKinds = append(extraKinds, f) }

// Discover lists the files under root (or the given paths) that some
// extractor reads, as slash-separated paths relative to root.
func Discover(root string, paths []string) ([]string, []Warning, error) {
	var out []string
	var warns []Warning
	seen := map[string]bool{}
	if len(paths) == 0 {
		paths = []string{root}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("scan %s: %w", p, err)
		}
		if !info.IsDir() {
			rel, err := relTo(root, p)
			if err != nil {
				return nil, nil, err
			}
			if !seen[rel] {
				seen[rel] = true
				out = append(out, rel)
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				rel, _ := relTo(root, path)
				warns = append(warns, Warning{Path: rel, Kind: WarnUnreadable, Message: "not readable: " + errors.Unwrap(err).Error()})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != p && skipDirs[d.Name()] {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, err := relTo(root, path)
			if err != nil {
				return err
			}
			if Kind(rel) != "" && !seen[rel] {
				seen[rel] = true
				out = append(out, rel)
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("scan %s: %w", p, err)
		}
	}
	sort.Strings(out)
	return out, warns, nil
}

func relTo(root, p string) (string, error) {
	ar, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(ar, ap)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the scan root %s", p, root)
	}
	return filepath.ToSlash(rel), nil
}

// readFile reads a file for extraction and says why not when it should be
// skipped (over limit bytes, binary). The error is for I/O failures.
func readFile(root, rel string, limit int64) ([]byte, skip, error) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Stat(full)
	if err != nil {
		return nil, skip{}, err
	}
	if info.Size() > limit {
		return nil, tooLarge(info.Size(), limit), nil
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, skip{}, err
	}
	if why := checkContent(src, limit); why.kind != "" {
		return nil, why, nil
	}
	return src, skip{}, nil
}

// CheckContent says why content should not be extracted ("" if it should)
// under the default limit.
func CheckContent(src []byte) string { return checkContent(src, MaxFileSize).why }

func checkContent(src []byte, limit int64) skip {
	if int64(len(src)) > limit {
		return tooLarge(int64(len(src)), limit)
	}
	head := src
	if len(head) > 8192 {
		head = head[:8192]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return skip{WarnBinary, "skipped: binary content"}
	}
	return skip{}
}

func tooLarge(size, limit int64) skip {
	return skip{WarnTooLarge, fmt.Sprintf("skipped: %d bytes is over the %d byte limit (--max-file-size)", size, limit)}
}

// Incomplete lists what the analysis could not read in full: the load's
// warnings, and the problems of configs (every file but Python, whose
// syntax errors leave a recovered tree to analyse, as in the editor).
func Incomplete(warns []Warning, problems []extract.Problem) []Warning {
	out := append([]Warning(nil), warns...)
	for _, p := range problems {
		if p.Loc.File == "" || Kind(p.Loc.File) == "python" {
			continue
		}
		out = append(out, Warning{Path: p.Loc.File, Kind: WarnParseError, Message: p.Message, Line: p.Loc.Start.Line, Column: p.Loc.Start.Col})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func hashOf(src []byte) [32]byte { return sha256.Sum256(src) }
