package provers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxRuleEntries bounds the walk of a rule directory: rule sets are small,
// and a repository must not make acg walk a huge tree for one config line.
const maxRuleEntries = 10000

// confine resolves a rule or query file named by a repository's config,
// relative to root, and refuses one that is not inside root: an absolute
// path, a `..` that climbs out, a symbolic link (on the way or inside a
// named directory) that leads out, or nothing at all. The result has no
// links left, so the prover reads what was checked. The errors never
// quote the path: it is the repository's text.
func confine(root, rel string) (string, error) {
	if rel == "" {
		return "", errors.New("empty")
	}
	if filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" || rel[0] == '/' || rel[0] == '\\' {
		return "", errors.New("an absolute path")
	}
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", errors.New("leaves the scanned root")
	}
	base, err := filepath.Abs(root)
	if err == nil {
		base, err = filepath.EvalSymlinks(base)
	}
	if err != nil {
		return "", fmt.Errorf("the scanned root: %w", err)
	}
	p, err := filepath.EvalSymlinks(filepath.Join(base, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		// A dangling link or a missing file; which, is not worth telling.
		if out := linkOut(base, rel); out {
			return "", errors.New("a symbolic link out of the scanned root")
		}
		return "", errors.New("not found in the scanned root")
	}
	if err != nil {
		return "", errors.New("cannot be resolved in the scanned root")
	}
	if !inside(base, p) {
		return "", errors.New("a symbolic link out of the scanned root")
	}
	info, err := os.Stat(p)
	if err != nil {
		return "", errors.New("not found in the scanned root")
	}
	if info.IsDir() {
		if err := linksStayIn(base, p); err != nil {
			return "", err
		}
	}
	return p, nil
}

// linkOut reports whether some prefix of rel is a link that resolves out
// of base (for a path that does not resolve as a whole).
func linkOut(base, rel string) bool {
	p := base
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), "/") {
		p = filepath.Join(p, part)
		if r, err := filepath.EvalSymlinks(p); err == nil && !inside(base, r) {
			return true
		}
	}
	return false
}

// linksStayIn walks a directory a prover will read whole and refuses it
// when a symbolic link in it leads out of base.
func linksStayIn(base, dir string) error {
	n := 0
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return errors.New("cannot be read in the scanned root")
		}
		if n++; n > maxRuleEntries {
			return fmt.Errorf("a directory of more than %d entries", maxRuleEntries)
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		r, err := filepath.EvalSymlinks(p)
		if err != nil || !inside(base, r) {
			return errors.New("a directory that holds a symbolic link out of the scanned root")
		}
		return nil
	})
}

// inside reports whether p is base or below it (both absolute and clean).
func inside(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
