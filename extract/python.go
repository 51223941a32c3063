package extract

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/acg-dev/acg/extract/syntax"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// PythonLanguage is the tree-sitter grammar used for every Python file.
// It is one value for the process: python.GetLanguage wraps the grammar
// in a new *sitter.Language on every call, and the name tables copied out
// of C (namesOf) are cached by that pointer.
func PythonLanguage() *sitter.Language { return pythonLanguage() }

var pythonLanguage = sync.OnceValue(python.GetLanguage)

// ParsePython parses src with a fresh parser. Callers that keep trees for
// incremental re-parsing (the language server) parse themselves and call
// Python with the tree.
func ParsePython(ctx context.Context, src []byte, old *sitter.Tree) (*sitter.Tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(PythonLanguage())
	t, err := p.ParseCtx(ctx, old, src)
	if err != nil {
		return nil, fmt.Errorf("parse python: %w", err)
	}
	return t, nil
}

// ModuleName derives the dotted module and package names from a path
// relative to the scan root: "app/tools.py" is module "app.tools" in package
// "app"; "app/__init__.py" is module and package "app".
func ModuleName(rel string) (module, pkg string) {
	rel = strings.TrimSuffix(path.Clean(strings.ReplaceAll(rel, "\\", "/")), ".py")
	rel = strings.TrimSuffix(rel, ".pyi")
	parts := strings.Split(rel, "/")
	if parts[len(parts)-1] == "__init__" {
		parts = parts[:len(parts)-1]
		m := strings.Join(parts, ".")
		return m, m
	}
	return strings.Join(parts, "."), strings.Join(parts[:len(parts)-1], ".")
}

// Python extracts the facts of one Python file from its tree. It never
// fails: whatever tree-sitter recovered from a broken file is extracted, and
// the syntax errors become Problems.
func Python(rel string, src []byte, tree *sitter.Tree) *File {
	f := &File{Path: rel, Lang: LangPython, Classes: map[string]*Class{}}
	f.Module, f.Package = ModuleName(rel)
	f.Lines = LineStarts(src)
	b := &builder{src: src, f: f}
	root := syntax.Mirror(tree.RootNode(), PythonLanguage())
	mod := &Func{Name: "<module>", Qual: "<module>"}
	mod.Scope = newScope(nil, mod)
	f.Scope = mod.Scope
	f.Funcs = append(f.Funcs, mod)
	b.collectErrors(root)
	b.predeclare(root, mod.Scope)
	b.rebound = map[string]bool{}
	b.globals(root)
	b.walkFunc(mod, root, nil, nil)
	for _, fn := range f.Funcs {
		finishFunc(fn)
	}
	for _, a := range adapters {
		a(f)
	}
	for _, a := range treeAdapters {
		a(f, root, src)
	}
	for _, a := range f.Agents {
		if a.Call != nil && a.Call.Call != nil {
			a.Call.Call.BuildsAgent = true
		}
	}
	return f
}

type builder struct {
	src []byte
	f   *File
	// rebound are the module names some function rebinds through a
	// `global` statement: their value is whatever was assigned last, which
	// a walk in source order cannot know.
	rebound map[string]bool
}

// walker holds the state of one function body walk.
type walker struct {
	b     *builder
	fn    *Func
	class *Class
	env   map[string]Flow   // local variables: where their values come from
	types map[string]string // local variables built by a known call: its qualified callee + "()"
	dom   int               // nearest dominating call
	depth int               // conditional nesting depth
	// seen maps call nodes to their Call so a replayed loop body reuses them.
	seen   map[[2]uint32]*Call
	replay bool
	// pending are nested function bodies to walk after this one.
	pending *[]func()
	// guards are the conditions of the ifs around the current statement.
	guards []Guard
	// plain holds, for a dict literal with credential keys ({"api_key":
	// key, "q": q}), its flow without those values: what a library call
	// given the dict can return (see credentialKw).
	plain map[*Expr]Flow
	// aliasDepth bounds following module aliases (A = B) when resolving.
	aliasDepth int
}

// guardsNow returns the current guards, safe to keep.
func (w *walker) guardsNow() []Guard {
	if len(w.guards) == 0 {
		return nil
	}
	return w.guards[:len(w.guards):len(w.guards)]
}

// LineStarts returns the byte offset of each line start, for PointAt.
func LineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// PointAt converts a byte offset into a Point (1-based line, 1-based UTF-16 column).
func PointAt(src []byte, lines []int, off int) Point {
	if off > len(src) {
		off = len(src)
	}
	li := sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
	if li < 0 {
		li = 0
	}
	return Point{Line: li + 1, Col: UTF16Len(src[lines[li]:off]) + 1, Byte: off}
}

// UTF16Len counts UTF-16 code units in b; invalid bytes count one each, as
// editors display them as one replacement character.
func UTF16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 && r != utf8.RuneError {
			n += len(utf16.Encode([]rune{r}))
		} else {
			n++
		}
	}
	return n
}

func (b *builder) loc(n *syntax.Node) Loc {
	if n == nil {
		return Loc{}
	}
	return Loc{File: b.f.Path,
		Start: PointAt(b.src, b.f.Lines, int(n.StartByte())),
		End:   PointAt(b.src, b.f.Lines, int(n.EndByte()))}
}

func (b *builder) text(n *syntax.Node) string {
	if n == nil {
		return ""
	}
	return n.Content(b.src)
}

func (b *builder) collectErrors(root *syntax.Node) {
	if !root.HasError() {
		return
	}
	const maxProblems = 20
	var visit func(n *syntax.Node)
	visit = func(n *syntax.Node) {
		if len(b.f.Problems) >= maxProblems || !n.HasError() && !n.IsMissing() {
			return
		}
		if n.IsError() || n.IsMissing() {
			msg := "syntax error: extraction continues with what the parser recovered"
			if n.IsMissing() {
				msg = fmt.Sprintf("syntax error: missing %q", n.Type())
			}
			b.f.Problems = append(b.f.Problems, Problem{Loc: b.loc(n), Message: msg})
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			visit(n.Child(i))
		}
	}
	visit(root)
}

func named(n *syntax.Node) []*syntax.Node {
	if n == nil {
		return nil
	}
	return n.NamedChildren()
}

// predeclare binds imports, defs and classes of a block before its walk, so
// that a function can call a helper defined further down the file.
// globals collects the names declared `global` anywhere in the file.
func (b *builder) globals(n *syntax.Node) {
	for _, c := range named(n) {
		if c.Type() == "global_statement" {
			for _, id := range named(c) {
				if id.Type() == "identifier" {
					b.rebound[b.text(id)] = true
				}
			}
			continue
		}
		b.globals(c)
	}
}

func (b *builder) predeclare(block *syntax.Node, sc *Scope) {
	for _, st := range named(block) {
		switch st.Type() {
		case "import_statement", "import_from_statement", "future_import_statement":
			b.imports(st, sc)
		case "try_statement", "if_statement", "with_statement", "block", "else_clause", "except_clause",
			"finally_clause", "elif_clause", "except_group_clause":
			// Optional imports: try: from x import y / if TYPE_CHECKING: ...
			b.predeclare(st, sc)
		}
	}
}

func (b *builder) imports(st *syntax.Node, sc *Scope) {
	add := func(im Import) {
		im.Loc = b.loc(st)
		if sc.Parent == nil {
			b.f.Imports = append(b.f.Imports, im)
		}
		imp := im
		sc.add(&Binding{Name: im.Local, Kind: BindImport, Imp: &imp, Loc: im.Loc})
	}
	switch st.Type() {
	case "import_statement":
		for _, n := range named(st) {
			switch n.Type() {
			case "dotted_name":
				mod := b.text(n)
				// `import a.b` binds `a` but makes a.b reachable as a.b.
				head := strings.SplitN(mod, ".", 2)[0]
				add(Import{Local: head, Module: head})
				if head != mod {
					add(Import{Local: mod, Module: mod})
				}
			case "aliased_import":
				add(Import{Local: b.text(n.ChildByFieldName("alias")), Module: b.text(n.ChildByFieldName("name"))})
			}
		}
	case "import_from_statement":
		modNode := st.ChildByFieldName("module_name")
		mod, level := b.text(modNode), 0
		if modNode != nil && modNode.Type() == "relative_import" {
			mod, level = "", 0
			for _, c := range named(modNode) {
				switch c.Type() {
				case "import_prefix":
					level = len(strings.TrimSpace(b.text(c)))
				case "dotted_name":
					mod = b.text(c)
				}
			}
			mod = b.absolute(mod, level)
		}
		for i := 0; i < int(st.ChildCount()); i++ {
			n := st.Child(i)
			if !n.IsNamed() {
				continue
			}
			if st.FieldNameForChild(i) != "name" {
				if n.Type() == "wildcard_import" {
					b.f.Problems = append(b.f.Problems, Problem{Loc: b.loc(st), Message: "wildcard import from " + mod + ": names it brings are not resolved"})
				}
				continue
			}
			switch n.Type() {
			case "dotted_name":
				add(Import{Local: b.text(n), Module: mod, Symbol: b.text(n), Level: level})
			case "aliased_import":
				add(Import{Local: b.text(n.ChildByFieldName("alias")), Module: mod, Symbol: b.text(n.ChildByFieldName("name")), Level: level})
			}
		}
	}
}

// absolute turns a relative import into a path-derived module name: level 1
// is this file's package, level 2 its parent, and so on.
func (b *builder) absolute(mod string, level int) string {
	pkg := b.f.Package
	parts := []string{}
	if pkg != "" {
		parts = strings.Split(pkg, ".")
	}
	up := level - 1
	if up > len(parts) {
		up = len(parts)
	}
	parts = parts[:len(parts)-up]
	if mod != "" {
		parts = append(parts, mod)
	}
	return strings.Join(parts, ".")
}

var builtinNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`open print len str int float bool dict list set tuple range enumerate zip map
		filter sorted reversed min max sum any all isinstance issubclass hasattr getattr setattr delattr repr format
		type id hash iter next abs round divmod pow chr ord hex oct bin bytes bytearray memoryview frozenset object
		super vars dir callable eval exec compile input __import__ globals locals breakpoint staticmethod classmethod
		property slice complex ascii aiter anext help`) {
		builtinNames[n] = true
	}
}

func isExceptionName(n string) bool {
	return strings.HasSuffix(n, "Error") || strings.HasSuffix(n, "Exception") || strings.HasSuffix(n, "Warning") ||
		n == "StopIteration" || n == "KeyboardInterrupt" || n == "SystemExit"
}
