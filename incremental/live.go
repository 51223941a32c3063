package incremental

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/prove"
)

// Workspace is the live workspace of the language server: the files of a
// root as read from disk, overlaid by the documents open in the editor, as
// a sequence of immutable snapshots. Every change makes a new snapshot that
// shares the unchanged files with the previous one; Analyze then rebuilds
// only what the change reaches (see Analyzer).
//
// An open document keeps its tree-sitter tree and is re-parsed incrementally:
// each edit is applied with Tree.Edit to a copy of the previous tree and the
// parser reuses the unchanged parts. Files on disk and in snapshots keep no
// tree (see File): only open documents are edited.
type Workspace struct {
	root string
	an   Analyzer

	mu   sync.Mutex
	seq  uint64
	snap *Snapshot
	disk map[string]*File // as last read from disk, skipped files included
	docs map[string]*doc  // open documents
	user []*File          // user-level files (SetUserFiles), named ~/…
}

// doc is an open document.
type doc struct {
	version int32
	text    []byte
	tree    *sitter.Tree // tree of text (nil when not parsed), for the next incremental parse
	file    *File        // what snapshots hold for the document
	good    bool         // file was extracted from text without syntax errors
	cur     bool         // file was made from text (not an older text kept for its facts)
}

// Edit replaces the bytes [Start, End) of a document's text with Text.
type Edit struct {
	Start, End int
	Text       []byte
}

// Document is the editor's view of an open document.
type Document struct {
	Version int32
	Text    []byte
}

// NewWorkspace returns an empty workspace over root; Load reads it.
func NewWorkspace(root string, log func(string)) *Workspace {
	w := &Workspace{root: root, disk: map[string]*File{}, docs: map[string]*doc{}}
	w.an.Log = log
	w.snap = NewSnapshot(root, 0, nil)
	return w
}

// Root is the directory the workspace's relative paths start from.
func (w *Workspace) Root() string { return w.root }

// Snapshot returns the current snapshot.
func (w *Workspace) Snapshot() *Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.snap
}

// Analyze analyses a snapshot of this workspace with the external
// provers' flows, reusing what earlier analyses built for files the changes
// do not reach.
func (w *Workspace) Analyze(ctx context.Context, s *Snapshot, external []prove.Flow) (*Result, error) {
	return w.an.Analyze(ctx, s, external)
}

// Document returns an open document's version and text.
func (w *Workspace) Document(rel string) (Document, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.docs[rel]
	if d == nil {
		return Document{}, false
	}
	return Document{Version: d.version, Text: d.text}, true
}

// Load reads every file of the root from disk (again), keeping the files
// whose content did not change so that their analysis is reused. Open
// documents keep the editor's text. progress, if not nil, hears each file
// read (see LoadWithProgress).
func (w *Workspace) Load(ctx context.Context, progress func(done, total int)) ([]Warning, error) {
	fresh, warns, err := LoadWithProgress(ctx, w.root, nil, progress)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	disk := map[string]*File{}
	for _, f := range fresh.Files() {
		if old := w.disk[f.Path]; old != nil && old.Skipped == "" && f.Skipped == "" && old.Hash == f.Hash {
			f = old
		}
		disk[f.Path] = f
	}
	w.disk = disk
	w.rebuildLocked()
	return warns, nil
}

// rebuildLocked makes a new snapshot from the disk files and open documents.
func (w *Workspace) rebuildLocked() {
	var files []*File
	for p, f := range w.disk {
		if w.docs[p] == nil {
			files = append(files, f)
		}
	}
	for _, d := range w.docs {
		files = append(files, d.file)
	}
	files = append(files, w.user...)
	w.seq++
	w.snap = NewSnapshot(w.root, w.seq, files)
}

func (w *Workspace) swapLocked(changed []*File, removed []string) *Snapshot {
	w.seq++
	w.snap = w.snap.With(w.seq, changed, removed)
	return w.snap
}

// Open starts tracking a document the editor opened. Files no extractor
// reads are not tracked.
func (w *Workspace) Open(ctx context.Context, rel string, version int32, text []byte) (*Snapshot, error) {
	if Kind(rel) == "" {
		return w.Snapshot(), nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// Disk files keep no tree: parse the document again for the tree its
	// next edit re-parses from. When the text is the disk file's, those
	// facts serve as they are.
	f, tree, err := parseFile(ctx, rel, text, nil, MaxFileSize)
	if err != nil {
		return w.snap, err
	}
	if old := w.disk[rel]; old != nil && old.Skipped == "" && bytes.Equal(old.Src, text) {
		f = withVersion(old, version)
	} else {
		f.Version = version
	}
	w.docs[rel] = &doc{version: version, text: text, tree: tree, file: f, good: !f.syntaxError, cur: true}
	return w.swapLocked([]*File{f}, nil), nil
}

// Change applies the editor's edits to an open document, in order, and
// re-parses it incrementally. When the new text has syntax errors the
// snapshot keeps the last facts extracted without any (the text and tree
// still advance, for the next edit). It returns the snapshot and whether it
// holds the new text.
func (w *Workspace) Change(ctx context.Context, rel string, version int32, edits []Edit) (*Snapshot, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.docs[rel]
	if d == nil {
		return w.snap, false, fmt.Errorf("change to %s, which is not open", rel)
	}
	text := d.text
	var tree *sitter.Tree
	if d.tree != nil {
		// A copy: an edit found invalid below leaves the tree as it was.
		tree = d.tree.Copy()
	}
	for _, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(text) {
			// The editor and we disagree about the text: nothing below can be trusted.
			return w.snap, false, fmt.Errorf("change to %s: edit [%d,%d) outside the text (%d bytes)", rel, e.Start, e.End, len(text))
		}
		next := make([]byte, 0, len(text)-(e.End-e.Start)+len(e.Text))
		next = append(append(append(next, text[:e.Start]...), e.Text...), text[e.End:]...)
		if tree != nil {
			tree.Edit(sitter.EditInput{
				StartIndex: uint32(e.Start), OldEndIndex: uint32(e.End), NewEndIndex: uint32(e.Start + len(e.Text)),
				StartPoint: treePoint(text, e.Start), OldEndPoint: treePoint(text, e.End), NewEndPoint: treePoint(next, e.Start+len(e.Text)),
			})
		}
		text = next
	}
	oldText, oldTree := d.text, d.tree
	d.version, d.text = version, text
	var f *File
	if d.cur && d.good && frontEndOf(d.file.Kind) != nil && d.file.extracted() && oldTree != nil && checkContent(text, MaxFileSize).kind == "" {
		// Parse first: a comment edit needs no extraction now (see Shift).
		t, err := frontEndOf(d.file.Kind).Parse(ctx, rel, text, tree)
		if err != nil {
			d.tree, d.cur = nil, false
			return w.snap, false, err
		}
		d.tree = t
		f = &File{Path: rel, Kind: d.file.Kind, Src: text, Hash: hashOf(text), Version: version}
		if sh, ok := commentEdit(oldText, text, oldTree, t); ok {
			f.syntaxError, f.comments = d.file.syntaxError, comments(rel, text, t)
			// Its own copy: the lazy extraction may run on an analysis
			// goroutine while the next edit reads d.tree, and go-tree-sitter
			// trees (their node caches) are not safe for that.
			f.lazy = &lazyFacts{x: extractors[f.Kind], tree: t.Copy()}
			d.file = f
			p := w.snap
			n := w.swapLocked([]*File{f}, nil)
			sh.Path = rel
			n.shifted(p, sh)
			return n, true, nil
		}
		f.extractFrom(extractors[f.Kind], t, nil)
		// Extracted again: when the facts are the old ones moved along (a
		// docstring nobody reads, spaces inside a line), it is still a shift.
		if f.Skipped == "" && !f.syntaxError && !d.file.syntaxError && d.file.Skipped == "" {
			start, oldEnd, newEnd := diffSpan(oldText, text)
			sh := Shift{Path: rel, Start: start, OldEnd: oldEnd, NewEnd: newEnd}
			if mayKeepFacts(oldText, text, oldTree, t, sh) && sameComments(d.file.comments, f.comments, sh) && sameShifted(d.file.Facts(), f.facts, sh) {
				d.file, d.good, d.cur = f, true, true
				p := w.snap
				n := w.swapLocked([]*File{f}, nil)
				n.shifted(p, sh)
				return n, true, nil
			}
		}
	} else {
		var err error
		if f, tree, err = parseFile(ctx, rel, text, tree, MaxFileSize); err != nil {
			d.tree, d.cur = nil, false // parse from scratch next time
			return w.snap, false, err
		}
		f.Version = version
		d.tree = tree
	}
	if f.syntaxError && d.good {
		d.cur = false
		return w.snap, false, nil
	}
	d.file, d.good, d.cur = f, !f.syntaxError, true
	return w.swapLocked([]*File{f}, nil), true, nil
}

// ReadFile reads a file of the root as Load does (the same limits and
// skips, which are reported as an error): the language server takes an open
// document's text from disk again when it lost track of the editor's.
func (w *Workspace) ReadFile(rel string) ([]byte, error) {
	src, why, err := ReadInRoot(w.root, rel)
	if err != nil {
		return nil, err
	}
	if why != "" {
		return nil, fmt.Errorf("%s: %s", rel, why)
	}
	return src, nil
}

// Close stops tracking a document: the file on disk takes its place.
func (w *Workspace) Close(ctx context.Context, rel string) (*Snapshot, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.docs[rel]
	if d == nil {
		return w.snap, nil
	}
	delete(w.docs, rel)
	src, why, err := readFile(w.root, rel, MaxFileSize)
	var le *LinkError
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.As(err, &le):
		// A link is not part of the tree on disk (see ReadInRoot).
		delete(w.disk, rel)
		return w.swapLocked(nil, []string{rel}), nil
	case err != nil:
		return w.swapLocked(nil, []string{rel}), fmt.Errorf("%s: %w", rel, err)
	case why.kind != "":
		f := &File{Path: rel, Kind: Kind(rel), Skipped: why.why, skipKind: why.kind}
		w.disk[rel] = f
		return w.swapLocked([]*File{f}, nil), nil
	}
	f := w.disk[rel]
	switch {
	case d.file.Skipped == "" && bytes.Equal(d.file.Src, src):
		f = withVersion(d.file, 0)
	case f == nil || f.Skipped != "" || !bytes.Equal(f.Src, src):
		if f, err = NewFile(ctx, rel, src, nil); err != nil {
			return w.snap, err
		}
	}
	w.disk[rel] = f
	return w.swapLocked([]*File{f}, nil), nil
}

// Refresh re-reads files from disk after they changed there (a save, a git
// checkout, another tool). Open documents keep the editor's text. It
// returns the skipped files' reasons as warnings.
func (w *Workspace) Refresh(rels []string) (*Snapshot, []Warning) {
	type read struct {
		rel  string
		f    *File
		gone bool
	}
	var reads []read
	var warns []Warning
	for _, rel := range w.expand(rels) {
		if Kind(rel) == "" {
			continue
		}
		src, why, err := readFile(w.root, rel, MaxFileSize)
		var le *LinkError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			reads = append(reads, read{rel: rel, gone: true})
			continue
		case errors.As(err, &le):
			// Not part of the tree: as if the file were gone.
			warns = append(warns, le.Warning(rel))
			reads = append(reads, read{rel: rel, gone: true})
			continue
		case err != nil:
			warns = append(warns, Warning{Path: rel, Kind: WarnUnreadable, Message: "not readable: " + err.Error()})
			continue
		case why.kind != "":
			warns = append(warns, why.warning(rel))
			reads = append(reads, read{rel: rel, f: &File{Path: rel, Kind: Kind(rel), Skipped: why.why, skipKind: why.kind}})
			continue
		}
		if old := w.diskFile(rel); old != nil && old.Skipped == "" && old.Hash == hashOf(src) {
			continue
		}
		// Not ctx: a cancelled parse would drop the change, and parsing one
		// file is quick.
		f, err := NewFile(context.Background(), rel, src, nil)
		if err != nil {
			warns = append(warns, Warning{Path: rel, Kind: WarnExtraction, Message: err.Error()})
			continue
		}
		reads = append(reads, read{rel: rel, f: f})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var changed []*File
	var removed []string
	for _, r := range reads {
		if r.gone {
			if w.disk[r.rel] == nil {
				continue
			}
			delete(w.disk, r.rel)
		} else {
			w.disk[r.rel] = r.f
		}
		if w.docs[r.rel] != nil {
			continue
		}
		if r.gone {
			removed = append(removed, r.rel)
		} else {
			changed = append(changed, r.f)
		}
	}
	if len(changed) == 0 && len(removed) == 0 {
		return w.snap, warns
	}
	return w.swapLocked(changed, removed), warns
}

// expand replaces paths no extractor reads, such as a removed directory,
// by the known files under them.
func (w *Workspace) expand(rels []string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, rel := range rels {
		if Kind(rel) != "" {
			out = append(out, rel)
			continue
		}
		for p := range w.disk {
			if strings.HasPrefix(p, rel+"/") {
				out = append(out, p)
			}
		}
	}
	return out
}

func (w *Workspace) diskFile(rel string) *File {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.disk[rel]
}

// withVersion is the same file as an editor version of it (its builtin
// flows are proved again for the copy, once).
func withVersion(f *File, v int32) *File {
	return &File{Path: f.Path, Kind: f.Kind, Src: f.Src, Hash: f.Hash, Skipped: f.Skipped, skipKind: f.skipKind, Version: v,
		syntaxError: f.syntaxError, comments: f.comments, code: f.code, facts: f.facts, lazy: f.lazy}
}

// treePoint is the tree-sitter point (row, byte column) of a byte offset.
//
// go-tree-sitter's EditInput passes OldEndPoint where tree-sitter expects the
// new end point, so node rows and columns can be off after an edit on the
// edited line. Nothing here reads them: extraction uses byte offsets only,
// and the Python scanner counts indentation itself.
func treePoint(text []byte, off int) sitter.Point {
	row := bytes.Count(text[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(text[:off], '\n') + 1)
	return sitter.Point{Row: uint32(row), Column: uint32(col)}
}
