package incremental

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
)

// File is one file of a snapshot; immutable once built.
type File struct {
	Path     string
	Kind     string
	Src      []byte
	Hash     [32]byte
	Skipped  string // why the file was not extracted
	skipKind string // the Warning kind of Skipped
	Version  int32  // editor version; 0 for files read from disk

	// The parse tree is not kept: it is most of a file's memory (tree-sitter's
	// C heap), and once the facts are extracted only these two answers from
	// it are still needed. The language server keeps the trees of open
	// documents itself (Workspace), for the next incremental parse.
	syntaxError bool      // the tree had an error node (Python only)
	comments    []comment // comments that may hold an acg directive
	// code is the code a container file holds (a notebook's cells, its
	// lines on the lines of the JSON that hold them), nil for other files.
	code []byte

	// facts are the extracted facts, nil when extraction failed. A document
	// edited only inside a comment is extracted when its facts are first
	// asked for (lazy): the language server republishes such an edit's
	// diagnostics without them (see Snapshot.ShiftsSince).
	facts *extract.File
	lazy  *lazyFacts

	// flows are the builtin prover's flows of this file, computed once and
	// shared by every snapshot that holds the file (see analyze.go).
	flowsOnce sync.Once
	flows     []prove.Flow
}

// lazyFacts extracts a file on first use; copies of the File (an editor
// version of it) share it.
type lazyFacts struct {
	once  sync.Once
	x     Extractor
	tree  *sitter.Tree // dropped once used
	facts *extract.File
}

// Facts returns the file's facts, or nil when it was not extracted.
func (f *File) Facts() *extract.File {
	if l := f.lazy; l != nil {
		l.once.Do(func() {
			// An extractor that fails here did not fail on the text before
			// the comment edit; the file then contributes nothing, as a
			// failed extraction does, until it changes.
			l.facts, _ = safeExtract(l.x, f.Path, f.Src, l.tree)
			l.tree = nil
		})
		return l.facts
	}
	return f.facts
}

// extracted reports whether the file has facts, without extracting a lazy
// one (whose text differs from an extracted one's only inside a comment).
func (f *File) extracted() bool { return f.lazy != nil || f.facts != nil }

// SkipKind is the Warning kind of Skipped (WarnTooLarge, WarnBinary, …), or
// "" for a file that was extracted.
func (f *File) SkipKind() string { return f.skipKind }

// Extractor turns one file's bytes into facts. tree is the Python parse
// tree for Python files and nil otherwise.
type Extractor func(rel string, src []byte, tree *sitter.Tree) *extract.File

var extractors = map[string]Extractor{}

// RegisterExtractor adds an extractor for a file kind (see RegisterKind).
func RegisterExtractor(kind string, x Extractor) { extractors[kind] = x }

// NewFile parses and extracts one file. old, when given, is the previous
// tree of the same file already edited with tree.Edit, so tree-sitter
// re-parses only what changed. The new tree is dropped.
func NewFile(ctx context.Context, rel string, src []byte, old *sitter.Tree) (*File, error) {
	f, tree, err := parseFile(ctx, rel, src, old, MaxFileSize)
	closeTree(tree)
	return f, err
}

// closeTree frees a tree no one holds at once: tree-sitter's memory is C
// memory, which the Go collector neither sees nor counts, so a finalizer
// frees it only when some later collection happens to run, and a scan of
// many files would reach its peak with thousands of dead trees.
func closeTree(t *sitter.Tree) {
	if t != nil {
		t.Close()
	}
}

// CodeText is the file's code: its text, or for a file that holds code (a
// notebook) that code, whose lines are the file's lines that hold them, so
// a `# acg: ignore` comment in a cell covers the cell's next line.
func (f *File) CodeText() []byte {
	if f.code != nil {
		return f.code
	}
	return f.Src
}

// SyntaxError reports whether the file's parse tree had an error node.
func (f *File) SyntaxError() bool { return f.syntaxError }

// parseFile is NewFile that also returns the tree (nil for files that are
// not code, were skipped, or hold their code in a container: that tree is
// of the code, not of the file, so no edit of the file may be applied to it).
func parseFile(ctx context.Context, rel string, src []byte, old *sitter.Tree, limit int64) (*File, *sitter.Tree, error) {
	f := &File{Path: rel, Kind: Kind(rel), Src: src, Hash: hashOf(src)}
	if why := checkContentOf(rel, src, limit); why.kind != "" {
		f.Skipped, f.skipKind = why.why, why.kind
		return f, nil, nil
	}
	x := extractors[f.Kind]
	if x == nil {
		f.Skipped = "no extractor for this file"
		return f, nil, nil
	}
	var tree *sitter.Tree
	var emb *extract.Embedded
	if fe := frontEndOf(f.Kind); fe != nil {
		code := src
		if fe.Code != nil {
			e, err := fe.Code(rel, src)
			if err != nil {
				f.Skipped, f.skipKind = err.Error(), WarnParseError
				return f, nil, nil
			}
			if int64(len(e.Code)) > limit {
				f.Skipped, f.skipKind = fmt.Sprintf("skipped: its code is %d bytes, over the %d byte limit (--max-file-size)", len(e.Code), limit), WarnTooLarge
				return f, nil, nil
			}
			emb, code, old = e, e.Code, nil
		}
		t, err := fe.Parse(ctx, rel, code, old)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", rel, err)
		}
		tree = t
	}
	f.extractFrom(x, tree, emb)
	if emb != nil {
		closeTree(tree)
		tree = nil
	}
	return f, tree, nil
}

// extractFrom fills in what f keeps from its tree (nil for files other
// than code) and extracts its facts. emb, when not nil, is the code the
// file holds (a notebook's cells), which the tree is a tree of: the facts
// and comments found in it are moved into the file's positions.
func (f *File) extractFrom(x Extractor, tree *sitter.Tree, emb *extract.Embedded) {
	code := f.Src
	if emb != nil {
		code, f.code = emb.Code, emb.Code
	}
	f.syntaxError = tree != nil && tree.RootNode().HasError()
	f.comments = comments(f.Path, code, tree)
	facts, err := safeExtract(x, f.Path, code, tree)
	if err == nil && emb != nil && facts != nil {
		for i, c := range f.comments {
			f.comments[i].loc = locOf(f.Src, emb.FileOffset(int(c.loc.Start.Byte)), emb.FileOffset(int(c.loc.End.Byte)), f.Path)
		}
		if err = emb.Relocate(facts, f.Src); err == nil {
			facts.Problems = append(facts.Problems, emb.Problems...)
		}
	}
	if err != nil {
		f.Skipped, f.skipKind = err.Error(), WarnExtraction
		return
	}
	f.facts = facts
}

// safeExtract turns a panic in an extractor into an error: one bad file
// never takes the whole analysis (or the language server) down.
func safeExtract(x Extractor, rel string, src []byte, tree *sitter.Tree) (facts *extract.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("extraction failed: %v", r)
		}
	}()
	return x(rel, src, tree), nil
}

// Snapshot is an immutable view of the workspace. Its analysis is computed
// once, on first use.
type Snapshot struct {
	Root  string
	Seq   uint64
	files map[string]*File
	paths []string

	once   sync.Once
	result *Result
	cfg    *config.Config // set by WithConfig

	// A snapshot made by a comment edit (see ShiftsSince) records the run
	// of such edits it ends: shiftSeqs[i] is the snapshot that shifts[i]
	// was made from. Sequence numbers rather than snapshots, which would
	// keep every text of the run alive.
	shiftSeqs []uint64
	shifts    []Shift
}

// NewSnapshot makes a snapshot from files.
func NewSnapshot(root string, seq uint64, files []*File) *Snapshot {
	s := &Snapshot{Root: root, Seq: seq, files: make(map[string]*File, len(files))}
	for _, f := range files {
		s.files[f.Path] = f
	}
	s.index()
	return s
}

func (s *Snapshot) index() {
	s.paths = s.paths[:0]
	for p := range s.files {
		s.paths = append(s.paths, p)
	}
	sort.Strings(s.paths)
}

// File returns the file at a relative path, or nil.
func (s *Snapshot) File(rel string) *File { return s.files[rel] }

// Files returns every file in path order.
func (s *Snapshot) Files() []*File {
	out := make([]*File, len(s.paths))
	for i, p := range s.paths {
		out[i] = s.files[p]
	}
	return out
}

// With returns a new snapshot where the given files replace or add to this
// one's, and the removed paths are gone. Unchanged files are shared.
func (s *Snapshot) With(seq uint64, changed []*File, removed []string) *Snapshot {
	n := &Snapshot{Root: s.Root, Seq: seq, files: make(map[string]*File, len(s.files)+len(changed)), cfg: s.cfg}
	for k, v := range s.files {
		n.files[k] = v
	}
	for _, r := range removed {
		delete(n.files, r)
	}
	for _, f := range changed {
		n.files[f.Path] = f
	}
	n.index()
	return n
}

// Load reads a scan root (or some paths under it) from disk.
func Load(ctx context.Context, root string, paths []string) (*Snapshot, []Warning, error) {
	return LoadWithProgress(ctx, root, paths, nil)
}

// LoadWithProgress is Load that reports each file read to progress (from
// several goroutines at once) with the number done and the total.
func LoadWithProgress(ctx context.Context, root string, paths []string, progress func(done, total int)) (*Snapshot, []Warning, error) {
	return LoadWith(ctx, root, paths, LoadOptions{Progress: progress})
}

// LoadOptions tune Load.
type LoadOptions struct {
	// Progress, if not nil, hears each file read (see LoadWithProgress).
	Progress func(done, total int)
	// MaxFileSize is the largest file extracted (0: MaxFileSize); a larger
	// one is skipped with a warning.
	MaxFileSize int64
}

// LoadWith is Load with options.
func LoadWith(ctx context.Context, root string, paths []string, opts LoadOptions) (*Snapshot, []Warning, error) {
	progress, limit := opts.Progress, opts.MaxFileSize
	if limit <= 0 {
		limit = MaxFileSize
	}
	rels, warns, err := Discover(root, paths)
	if err != nil {
		return nil, nil, err
	}
	files := make([]*File, len(rels))
	fileWarns := make([]Warning, len(rels))
	var firstErr error
	var mu sync.Mutex
	var done atomic.Int64
	work := make(chan int)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if progress != nil {
					progress(int(done.Add(1)), len(rels))
				}
				src, why, err := readFile(root, rels[i], limit)
				var le *LinkError
				if errors.As(err, &le) {
					fileWarns[i] = le.Warning(rels[i])
					continue
				}
				if err != nil {
					fileWarns[i] = Warning{Path: rels[i], Kind: WarnUnreadable, Message: "not readable: " + err.Error()}
					continue
				}
				if why.kind != "" {
					fileWarns[i] = why.warning(rels[i])
					files[i] = &File{Path: rels[i], Kind: Kind(rels[i]), Skipped: why.why, skipKind: why.kind}
					continue
				}
				f, tree, err := parseFile(ctx, rels[i], src, nil, limit)
				closeTree(tree)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				if f.Skipped != "" {
					fileWarns[i] = Warning{Path: rels[i], Kind: f.skipKind, Message: f.Skipped}
				}
				files[i] = f
			}
		}()
	}
	for i := range rels {
		select {
		case work <- i:
		case <-ctx.Done():
			close(work)
			wg.Wait()
			return nil, nil, ctx.Err()
		}
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return nil, nil, firstErr
	}
	var kept []*File
	for i, f := range files {
		if fileWarns[i].Path != "" {
			warns = append(warns, fileWarns[i])
		}
		if f != nil {
			kept = append(kept, f)
		}
	}
	return NewSnapshot(root, 1, kept), warns, nil
}
