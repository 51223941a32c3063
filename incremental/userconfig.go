package incremental

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// KindClaudeUserJSON is ~/.claude.json: read only for the scanned
// project's entry and the user's own servers (extract.ClaudeUserJSON), so
// it is built by UserConfigFiles, which knows the project, and never
// discovered in a tree.
const KindClaudeUserJSON = "claude-user-json"

// UserConfigFiles reads the user-level files of every client acg knows
// (extract.UserFiles) from home, for a scan of projectDir (absolute). The
// files are named "~/…" (managed ones by their absolute path), never by
// the expanded home. A file that does not exist is skipped; one that
// cannot be read is a warning; one that does not parse is extracted like
// any config, so its problem becomes a notice (incomplete input).
func UserConfigFiles(ctx context.Context, home, projectDir string) ([]*File, []Warning) {
	var files []*File
	var warns []Warning
	add := func(rel, real string) {
		src, err := readUser(real)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return
		case err != nil:
			warns = append(warns, Warning{Path: rel, Kind: WarnUnreadable, Message: "not readable: " + strings.ReplaceAll(err.Error(), real, rel)})
			return
		}
		if rel == "~/.claude.json" {
			f := &File{Path: rel, Kind: KindClaudeUserJSON, Src: src, Hash: hashOf(src)}
			if why := checkContent(src, MaxFileSize*8); why.kind != "" { // ~/.claude.json keeps history: larger than a config
				f.Skipped, f.skipKind = why.why, why.kind
				warns = append(warns, why.warning(rel))
			} else {
				f.facts = extract.ClaudeUserJSON(rel, src, projectDir)
			}
			files = append(files, f)
			return
		}
		f, err := NewFile(ctx, rel, src, nil)
		if err != nil {
			warns = append(warns, Warning{Path: rel, Kind: WarnExtraction, Message: err.Error()})
			return
		}
		if f.Skipped != "" && f.skipKind != "" {
			warns = append(warns, Warning{Path: rel, Kind: f.skipKind, Message: f.Skipped})
		}
		files = append(files, f)
	}
	for _, u := range extract.UserFiles {
		real := u.Path
		if strings.HasPrefix(u.Path, extract.UserPrefix) {
			if home == "" {
				continue
			}
			real = filepath.Join(home, filepath.FromSlash(strings.TrimPrefix(u.Path, extract.UserPrefix)))
		}
		if u.Glob == "" && !strings.HasSuffix(u.Path, "mcpServers") {
			add(u.Path, real)
			continue
		}
		ents, err := os.ReadDir(real)
		if err != nil {
			continue // no such directory: nothing configured there
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			if e.IsDir() || u.Glob != "" && !strings.HasSuffix(e.Name(), u.Glob) {
				continue
			}
			rel := u.Path + "/" + e.Name()
			if Kind(rel) == "" {
				continue
			}
			add(rel, filepath.Join(real, e.Name()))
		}
	}
	return files, warns
}

// readUser reads a user-level file up to the size limit (a larger one is
// read in full and then skipped by checkContent).
func readUser(p string) ([]byte, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fs.ErrNotExist
	}
	if info.Size() > MaxFileSize*8 {
		return nil, errors.New("larger than the limit for a user-level file")
	}
	return os.ReadFile(p)
}

// WithUserConfig returns the snapshot with the user-level files added
// (acg scan --user-config, the language server's acg.userConfig).
func (s *Snapshot) WithUserConfig(files []*File) *Snapshot {
	if len(files) == 0 {
		return s
	}
	return s.With(s.Seq, files, nil)
}

// SetUserFiles replaces the workspace's user-level files (the language
// server's acg.userConfig; nil turns them off) and makes a new snapshot.
// They are kept across Load: the disk scan of the root never finds them.
func (w *Workspace) SetUserFiles(files []*File) *Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.user = files
	w.rebuildLocked()
	return w.snap
}
