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
)

// MaxFileSize is the largest file extracted. Agent code is small; a larger
// file is generated or data and would only slow every analysis down.
const MaxFileSize = 2 << 20

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
	Message string `json:"message"`
}

func (w Warning) String() string { return w.Path + ": " + w.Message }

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
				warns = append(warns, Warning{Path: rel, Message: "not readable: " + errors.Unwrap(err).Error()})
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
// skipped (too large, binary). The error is for I/O failures.
func readFile(root, rel string) ([]byte, string, error) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Stat(full)
	if err != nil {
		return nil, "", err
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Sprintf("skipped: %d bytes is over the %d byte limit", info.Size(), MaxFileSize), nil
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, "", err
	}
	if why := CheckContent(src); why != "" {
		return nil, why, nil
	}
	return src, "", nil
}

// CheckContent says why content should not be extracted ("" if it should).
func CheckContent(src []byte) string {
	if len(src) > MaxFileSize {
		return fmt.Sprintf("skipped: %d bytes is over the %d byte limit", len(src), MaxFileSize)
	}
	head := src
	if len(head) > 8192 {
		head = head[:8192]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "skipped: binary content"
	}
	return ""
}

func hashOf(src []byte) [32]byte { return sha256.Sum256(src) }
