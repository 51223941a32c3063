package incremental

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

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
	// WarnCheckFailed is a check that panicked on this input (a bug in
	// acg): its findings are missing. The notice's file is the scan root.
	WarnCheckFailed = "check-failed"
	// WarnLinkOutside is a symbolic link out of the scan root: what it
	// points to is not read, so the input is incomplete. WarnLinkInside is
	// one inside the root: its target is read under its own name, so it
	// is a warning and no notice (Incomplete leaves it out).
	WarnLinkOutside = "symlink-outside-root"
	WarnLinkInside  = "symlink"
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
	if fe := frontEndFor(rel); fe != nil {
		return fe.Kind
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
		rel, err := relTo(root, p)
		if err != nil {
			return nil, nil, err
		}
		if rel != "." {
			// A path named below the root is held to the root's rule.
			var le *LinkError
			if _, err := linkOnPath(root, rel); errors.As(err, &le) {
				warns = append(warns, le.Warning(rel))
				continue
			}
		} else if info.IsDir() {
			// The root may be a link (the user chose it): walk what it
			// names, since WalkDir does not follow a link it starts at.
			p = strings.TrimSuffix(p, string(filepath.Separator)) + string(filepath.Separator)
		}
		if !info.IsDir() {
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
			rel, err := relTo(root, path)
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if w, ok := linkWarning(root, path, rel, d.Name()); ok {
					warns = append(warns, w)
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
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

// linkWarning is the warning for a link met in a walk: for a link to a
// directory (a whole .claude, say) and for one whose name some extractor
// reads; other links are not the scan's concern.
func linkWarning(root, path, rel, name string) (Warning, bool) {
	if skipDirs[name] {
		return Warning{}, false
	}
	if info, err := os.Stat(path); Kind(rel) == "" && (err != nil || !info.IsDir()) {
		return Warning{}, false
	}
	le := &LinkError{Link: rel, Outside: !resolvesInside(root, path)}
	return le.Warning(rel), true
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

// Symbolic links: acg reads no file through a symbolic link below the
// scan root, whether it points out of the root or inside it, and whether
// the link is the file itself or a directory on its way. A link out of the
// root could make a scan read (and its messages quote) any file of the
// user's; one inside the root only names a file acg reads under its own
// name anyway, so skipping every link is the one rule that is both safe
// and simple. The root itself is the user's choice and may be a link;
// so may --config. Each skipped link gives a warning that names the link,
// never what it points to.

// LinkError says that a path goes through a symbolic link.
type LinkError struct {
	Link    string // the link, relative to the root, slash-separated
	Outside bool   // it resolves out of the root (or nowhere)
}

func (e *LinkError) Error() string { return e.Link + ": " + e.about(e.Link) }

// about says what the link means for the file rel.
func (e *LinkError) about(rel string) string {
	what := "a symbolic link"
	if rel != e.Link {
		what = "below " + e.Link + ", a symbolic link"
	}
	if e.Outside {
		return "skipped: " + what + " out of the scan root (acg never reads through one)"
	}
	return "skipped: " + what + " (acg follows no links in a scanned tree; the file it points to is scanned under its own name)"
}

// Warning is the warning for the file rel that the link made acg skip.
func (e *LinkError) Warning(rel string) Warning {
	kind := WarnLinkInside
	if e.Outside {
		kind = WarnLinkOutside
	}
	return Warning{Path: rel, Kind: kind, Message: e.about(rel)}
}

// linkOnPath returns a *LinkError when rel, or a directory on the way to
// it, is a symbolic link below root, and otherwise what rel is. A missing
// component is an error that wraps fs.ErrNotExist.
func linkOnPath(root, rel string) (fs.FileInfo, error) {
	cur := root
	parts := strings.Split(filepath.ToSlash(rel), "/")
	var info fs.FileInfo
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		var err error
		if info, err = os.Lstat(cur); err != nil {
			return nil, err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return nil, &LinkError{Link: strings.Join(parts[:i+1], "/"), Outside: !resolvesInside(root, cur)}
		}
	}
	return info, nil
}

// resolvesInside reports whether the link p resolves to a path in root.
func resolvesInside(root, p string) bool {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(real, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ReadInRoot reads the file rel of root for acg, and is the only way acg
// reads a file of a scanned tree. It refuses a path through a symbolic
// link (a *LinkError), and says why not when the file should be skipped
// (too large, binary, not a regular file). The error is otherwise for I/O
// failures. The file is opened with os.Root, so that a link swapped in
// after the check still cannot lead out of the root.
func ReadInRoot(root, rel string) ([]byte, string, error) {
	src, why, err := readFile(root, rel, MaxFileSize)
	return src, why.why, err
}

// readFile is ReadInRoot with a size limit and the kind of a skip.
func readFile(root, rel string, limit int64) ([]byte, skip, error) {
	if info, err := linkOnPath(root, rel); err != nil {
		return nil, skip{}, err
	} else if !info.Mode().IsRegular() {
		// Not opened: opening a named pipe waits for a writer.
		return nil, notRegular, nil
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, skip{}, err
	}
	defer r.Close()
	// O_NONBLOCK: should a pipe replace the file after the check, the open
	// still returns at once (a regular file reads the same either way).
	f, err := r.OpenFile(filepath.FromSlash(rel), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, skip{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, skip{}, err
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular, nil
	}
	raw := readLimit(rel, limit)
	if info.Size() > raw {
		return nil, tooLargeFile(rel, info.Size(), limit), nil
	}
	src, err := io.ReadAll(io.LimitReader(f, raw+1))
	if err != nil {
		return nil, skip{}, err
	}
	if why := checkContentOf(rel, src, limit); why.kind != "" {
		return nil, why, nil
	}
	return src, skip{}, nil
}

var notRegular = skip{WarnUnreadable, "skipped: not a regular file"}

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

// checkContentOf is checkContent with the limit of the file rel (a
// container file may be larger than the code limit: readLimit).
func checkContentOf(rel string, src []byte, limit int64) skip {
	raw := readLimit(rel, limit)
	if raw == limit {
		return checkContent(src, limit)
	}
	if int64(len(src)) > raw {
		return tooLargeFile(rel, int64(len(src)), limit)
	}
	return checkContent(src, raw)
}

func tooLargeFile(rel string, size, limit int64) skip {
	if raw := readLimit(rel, limit); raw != limit {
		return skip{WarnTooLarge, fmt.Sprintf("skipped: %d bytes is over the %d byte limit for a file that holds code (%d times --max-file-size, which applies to the code in it)", size, raw, containerFactor)}
	}
	return tooLarge(size, limit)
}

func tooLarge(size, limit int64) skip {
	return skip{WarnTooLarge, fmt.Sprintf("skipped: %d bytes is over the %d byte limit (--max-file-size)", size, limit)}
}

// Incomplete lists what the analysis could not read in full: the load's
// warnings, the problems of configs, and one notice per source file with a
// syntax error. The recovered tree of such a file is analysed, but tree-sitter's
// recovery can swallow what follows the damage (an agent defined below it),
// so a batch scan must not present the result as complete (the editor shows
// syntax errors through the language's own server instead). A problem that
// left part of a code file unread (a notebook cell) is a notice of its own.
func Incomplete(warns []Warning, problems []extract.Problem) []Warning {
	var out []Warning
	for _, w := range warns {
		if w.Kind != WarnLinkInside {
			out = append(out, w)
		}
	}
	syntaxAt := map[string]int{} // file → index in out of its notice
	syntaxN := map[string]int{}
	for _, p := range problems {
		switch {
		case p.Loc.File == "":
			continue
		case IsCode(p.Loc.File) && !p.Syntax && !p.Unread:
			continue // e.g. a wildcard import: a limit of the analysis, reported on stderr
		case p.Syntax && !p.Unread:
			syntaxN[p.Loc.File]++
			if _, seen := syntaxAt[p.Loc.File]; seen {
				continue
			}
			syntaxAt[p.Loc.File] = len(out)
		}
		out = append(out, Warning{Path: p.Loc.File, Kind: WarnParseError, Message: p.Message, Line: int(p.Loc.Start.Line), Column: int(p.Loc.Start.Col)})
	}
	for file, i := range syntaxAt {
		more := ""
		if n := syntaxN[file]; n > 1 {
			more = fmt.Sprintf(", and %d more in this file", n-1)
		}
		out[i].Message += more + "; only what the parser recovered was analysed, which may miss agents or tools"
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
