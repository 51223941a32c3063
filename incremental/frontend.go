package incremental

import (
	"context"
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
	"github.com/acg-dev/acg/extract/typescript"
)

// FrontEnd is one programming language's registration with the workspace
// (docs/architecture.md "Front ends"): which files it takes, how it parses
// them (incrementally, from the previous tree edited), how their facts
// are extracted and under which keys resolve finds a module of it. The
// workspace knows languages only through this.
type FrontEnd struct {
	// Kind is the file kind of the files it takes (Kind(rel)).
	Kind string
	// Exts are the file name endings it takes (".py").
	Exts []string
	// Skip, when set, refuses a file the endings take (a .d.ts).
	Skip func(rel string) bool
	// Parse parses src; old is the previous tree of the same file, already
	// edited with tree.Edit, or nil. rel chooses among grammars.
	Parse func(ctx context.Context, rel string, src []byte, old *sitter.Tree) (*sitter.Tree, error)
	// Extract turns the file and its tree into facts; it must be pure.
	Extract Extractor
	// ModuleKeys are the names resolve finds the file under.
	ModuleKeys func(f *extract.File) []string
	// Containers are the node types whose children are statements: an
	// edit inside a comment that is a child of one changes no facts.
	Containers []string
	// Code, when set, says the file is not code but holds code (a Jupyter
	// notebook: JSON whose code cells are Python). It returns that code
	// and the way back to the file's bytes, or an error saying why the
	// file cannot be read (a notice). Parse and Extract then see the code;
	// the facts and comments are moved into the file's positions. The
	// file may be containerFactor times the size limit, which applies to
	// the code; it is parsed whole on every change (a tree of the code
	// cannot take the file's edits).
	Code func(rel string, src []byte) (*extract.Embedded, error)
}

// containerFactor bounds a file whose Code is read: a notebook carries
// its outputs (images in base64), so the file may be this many times the
// size limit (--max-file-size), which applies to the code it holds.
const containerFactor = 32

// readLimit is the largest file rel that is read under the code limit.
func readLimit(rel string, limit int64) int64 {
	if fe := frontEndFor(rel); fe != nil && fe.Code != nil {
		return limit * containerFactor
	}
	return limit
}

// TextIsCode reports whether rel is code whose text is the code itself,
// so that an edit of the code is an edit of the file (quick fixes); a
// notebook's code is inside JSON strings.
func TextIsCode(rel string) bool {
	fe := frontEndFor(rel)
	return fe != nil && fe.Code == nil
}

var frontEnds []*FrontEnd

// RegisterFrontEnd adds a language. A later registration for an ending
// already taken wins, so a front end can be replaced in one line.
func RegisterFrontEnd(fe FrontEnd) {
	f := fe
	frontEnds = append([]*FrontEnd{&f}, frontEnds...)
	x := f.Extract
	keys := f.ModuleKeys
	RegisterExtractor(f.Kind, func(rel string, src []byte, tree *sitter.Tree) *extract.File {
		facts := x(rel, src, tree)
		if facts == nil {
			return nil
		}
		if keys != nil {
			facts.Keys = keys(facts)
		}
		// Any source file can be the script a hook runs (python3 x.py,
		// node x.js from anywhere in the tree), so each says what it can
		// answer; the text is already in memory, and reading it is a few
		// searches.
		facts.Hook = extract.ReadHookScript(src)
		return facts
	})
}

// frontEndFor is the front end that takes rel, or nil.
func frontEndFor(rel string) *FrontEnd {
	base := path.Base(strings.ReplaceAll(rel, "\\", "/"))
	for _, fe := range frontEnds {
		for _, e := range fe.Exts {
			if strings.HasSuffix(base, e) && (fe.Skip == nil || !fe.Skip(rel)) {
				return fe
			}
		}
	}
	return nil
}

// frontEndOf is the front end of a file kind, or nil.
func frontEndOf(kind string) *FrontEnd {
	for _, fe := range frontEnds {
		if fe.Kind == kind {
			return fe
		}
	}
	return nil
}

// isContainer reports a node type some front end names a statement
// container (module/block in Python, program/statement_block in
// TypeScript): a comment that is its child is between statements.
func isContainer(t string) bool {
	for _, fe := range frontEnds {
		for _, c := range fe.Containers {
			if c == t {
				return true
			}
		}
	}
	return false
}

// IsCode reports whether rel is a file some front end takes.
func IsCode(rel string) bool { return frontEndFor(rel) != nil }

// KindPython is the file kind of Python source.
const KindPython = "python"

func init() {
	RegisterFrontEnd(FrontEnd{
		Kind: KindPython, Exts: []string{".py", ".pyi"},
		Parse: func(ctx context.Context, _ string, src []byte, old *sitter.Tree) (*sitter.Tree, error) {
			return python.Parse(ctx, src, old)
		},
		Extract: python.Extract,
		ModuleKeys: func(f *extract.File) []string {
			// A module is importable under each dotted suffix of its path:
			// the scan root need not be the package root (src/ layouts).
			if f.Module == "" {
				return nil
			}
			parts := strings.Split(f.Module, ".")
			keys := make([]string, len(parts))
			for i := range parts {
				keys[i] = strings.Join(parts[i:], ".")
			}
			return keys
		},
		Containers: []string{"module", "block"},
	})
	RegisterFrontEnd(FrontEnd{
		Kind: KindTypeScript, Exts: typescript.Exts, Skip: typescript.Declaration,
		Parse: typescript.Parse, Extract: typescript.Extract, ModuleKeys: typescript.ModuleKeys,
		Containers: []string{"program", "statement_block", "class_body"},
	})
}

// KindTypeScript is the file kind of TypeScript and JavaScript source.
const KindTypeScript = "typescript"

// KindNotebook is the file kind of Jupyter notebooks, read as the Python
// module their code cells form (extract/python/notebook.go).
const KindNotebook = "notebook"

func init() {
	RegisterFrontEnd(FrontEnd{
		Kind: KindNotebook, Exts: []string{python.NotebookExt},
		Code: python.Notebook,
		Parse: func(ctx context.Context, _ string, code []byte, _ *sitter.Tree) (*sitter.Tree, error) {
			return python.Parse(ctx, code, nil)
		},
		Extract: python.ExtractNotebook,
		// No module keys: a notebook is not importable.
		Containers: []string{"module", "block"},
	})
}
