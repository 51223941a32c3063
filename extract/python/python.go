package python

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// Language is the tree-sitter grammar used for every Python file.
// It is one value for the process: python.GetLanguage wraps the grammar
// in a new *sitter.Language on every call, and the name tables copied out
// of C (namesOf) are cached by that pointer.
func Language() *sitter.Language { return pythonLanguage() }

var pythonLanguage = sync.OnceValue(python.GetLanguage)

// Parse parses src with a fresh parser. Callers that keep trees for
// incremental re-parsing (the language server) parse themselves and call
// Python with the tree.
func Parse(ctx context.Context, src []byte, old *sitter.Tree) (*sitter.Tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(Language())
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
func Extract(rel string, src []byte, tree *sitter.Tree) *extract.File {
	f := &extract.File{Path: rel, Lang: extract.LangPython, Classes: map[string]*extract.Class{}}
	f.Module, f.Package = ModuleName(rel)
	f.Lines = extract.LineStarts(src)
	b := &builder{src: src, f: f}
	root := syntax.Mirror(tree.RootNode(), Language())
	mod := &extract.Func{Name: "<module>", Qual: "<module>"}
	mod.Scope = extract.NewScope(nil, mod)
	f.Scope = mod.Scope
	f.Funcs = append(f.Funcs, mod)
	b.collectErrors(root)
	b.predeclare(root, mod.Scope)
	b.rebound = map[string]bool{}
	b.globals(root)
	b.walkFunc(mod, root, nil, nil)
	b.stateResults()
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
	toolText(f, src, root)
	return f
}

type builder struct {
	src []byte
	f   *extract.File
	// rebound are the module names some function rebinds through a
	// `global` statement: their value is whatever was assigned last, which
	// a walk in source order cannot know.
	rebound map[string]bool
	// selfStores are the values methods store in attributes of self, with
	// their flows, for stateResults.
	selfStores []selfStore
	// selfReturned are the attributes of self a method of each class
	// returns (a value derived from them: self.page[:n], self.page.strip()).
	selfReturned map[*extract.Class]map[string]bool
}

// selfStore is one `self.attr = value` in a method.
type selfStore struct {
	fn    *extract.Func
	class *extract.Class
	attr  string
	flow  extract.Flow
	loc   extract.Loc
}

// walker holds the state of one function body walk.
type walker struct {
	b     *builder
	fn    *extract.Func
	class *extract.Class
	env   map[string]extract.Flow // local variables: where their values come from
	types map[string]string       // local variables built by a known call: its qualified callee + "()"
	dom   int                     // nearest dominating call
	depth int                     // conditional nesting depth
	// seen maps call nodes to their Call so a replayed loop body reuses them.
	seen   map[[2]uint32]*extract.Call
	replay bool
	// pending are nested function bodies to walk after this one.
	pending *[]func()
	// guards are the conditions of the ifs around the current statement.
	guards []extract.Guard
	// plain holds, for a dict literal with credential keys ({"api_key":
	// key, "q": q}), its flow without those values: what a library call
	// given the dict can return (see credentialKw).
	plain map[*extract.Expr]extract.Flow
	// aliasDepth bounds following module aliases (A = B) when resolving.
	aliasDepth int
}

// guardsNow returns the current guards, safe to keep.
func (w *walker) guardsNow() []extract.Guard {
	if len(w.guards) == 0 {
		return nil
	}
	return w.guards[:len(w.guards):len(w.guards)]
}

func (b *builder) loc(n *syntax.Node) extract.Loc { return syntax.Loc(b.f.Path, b.src, b.f.Lines, n) }

func (b *builder) text(n *syntax.Node) string {
	if n == nil {
		return ""
	}
	return n.Content(b.src)
}

func (b *builder) collectErrors(root *syntax.Node) {
	for _, n := range syntax.Errors(root, 20) {
		msg := "syntax error"
		if n.IsMissing() {
			msg = fmt.Sprintf("syntax error: missing %q", n.Type())
		}
		b.f.Problems = append(b.f.Problems, extract.Problem{Loc: b.loc(n), Message: msg, Syntax: true})
	}
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

func (b *builder) predeclare(block *syntax.Node, sc *extract.Scope) {
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

func (b *builder) imports(st *syntax.Node, sc *extract.Scope) {
	add := func(im extract.Import) {
		im.Loc = b.loc(st)
		if sc.Parent == nil {
			b.f.Imports = append(b.f.Imports, im)
		}
		imp := im
		sc.Add(&extract.Binding{Name: im.Local, Kind: extract.BindImport, Imp: &imp, Loc: im.Loc})
	}
	switch st.Type() {
	case "import_statement":
		for _, n := range named(st) {
			switch n.Type() {
			case "dotted_name":
				mod := b.text(n)
				// `import a.b` binds `a` but makes a.b reachable as a.b.
				head := strings.SplitN(mod, ".", 2)[0]
				add(extract.Import{Local: head, Module: head})
				if head != mod {
					add(extract.Import{Local: mod, Module: mod})
				}
			case "aliased_import":
				add(extract.Import{Local: b.text(n.ChildByFieldName("alias")), Module: b.text(n.ChildByFieldName("name"))})
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
					b.f.Problems = append(b.f.Problems, extract.Problem{Loc: b.loc(st), Message: "wildcard import from " + mod + ": names it brings are not resolved"})
				}
				continue
			}
			switch n.Type() {
			case "dotted_name":
				add(extract.Import{Local: b.text(n), Module: mod, Symbol: b.text(n), Level: level})
			case "aliased_import":
				add(extract.Import{Local: b.text(n.ChildByFieldName("alias")), Module: mod, Symbol: b.text(n.ChildByFieldName("name")), Level: level})
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

// stateResults: a call whose result a method stores in self.attr reaches
// what any method of the class returns from self.attr (visit() stores the
// page, current() returns it), so it is a result of the storing method
// too. Without this a fetch kept in an object's state and handed back
// later lost its content: a fail-open answer. A method that returns only
// a comparison or a test of the attribute does not return it (selfAttrsIn).
func (b *builder) stateResults() {
	if len(b.selfStores) == 0 {
		return
	}
	// A method that stores one of its parameters in returned state
	// (_set_content(self, text): self._content = text) makes its callers'
	// argument returned state too: what a caller passes there
	// (self._set_content(fetch(url).text)) reaches what the class returns.
	type paramStore struct {
		class *extract.Class
		fn    *extract.Func
		param int
		attr  string
	}
	var params []paramStore
	for _, st := range b.selfStores {
		if !b.selfReturned[st.class][st.attr] {
			continue
		}
		for _, o := range st.flow {
			if o.Param > 0 && o.Call < 0 {
				params = append(params, paramStore{st.class, st.fn, o.Param, st.attr})
			}
			if o.Call < 0 || o.Call >= len(st.fn.Calls) {
				continue
			}
			step := &extract.Step{Loc: st.loc, Msg: "stored in self." + st.attr + ", which a method of the class returns", Prev: o.Step}
			st.fn.Returns = append(st.fn.Returns, extract.Origin{Param: -1, Call: o.Call, Step: step})
			st.fn.StateReturned = true
		}
	}
	for _, ps := range params {
		qual := ps.class.Name + "." + ps.fn.Name
		for _, m := range ps.class.Methods {
			for _, c := range m.Calls {
				if c.HeadKind != extract.HeadSelf || c.Qual != qual {
					continue
				}
				for _, a := range c.Args {
					if a.Pos != ps.param-1 && a.Kw != ps.fn.Params[ps.param].Name {
						continue
					}
					for _, o := range a.Flow {
						if o.Call < 0 || o.Call >= len(m.Calls) {
							continue
						}
						step := &extract.Step{Loc: c.Loc, Msg: "stored by " + ps.fn.Name + " in self." + ps.attr + ", which a method of the class returns", Prev: o.Step}
						m.Returns = append(m.Returns, extract.Origin{Param: -1, Call: o.Call, Step: step})
						m.StateReturned = true
					}
				}
			}
		}
	}
	// A method that calls one storing returned state stores it too
	// (visit_page calls _fetch_page, which keeps the page): the effects of
	// what it fetches reach the model when the class hands the state back.
	for changed := true; changed; {
		changed = false
		for cl := range b.selfReturned {
			for _, m := range cl.Methods {
				if m.StateReturned {
					continue
				}
				for _, c := range m.Calls {
					if c.HeadKind != extract.HeadSelf {
						continue
					}
					if callee := cl.Methods[strings.TrimPrefix(c.Qual, cl.Name+".")]; callee != nil && callee != m && callee.StateReturned {
						m.StateReturned, changed = true, true
						break
					}
				}
			}
		}
	}
}

// selfAttrsIn are the attributes of self a returned expression hands back
// or derives its value from; a comparison or a negation gives a bool, not
// the attribute's content.
func selfAttrsIn(ex *extract.Expr, out map[string]bool) {
	if ex == nil {
		return
	}
	switch ex.Kind {
	case extract.ExprCompare, extract.ExprNot, extract.ExprBool, extract.ExprNone, extract.ExprNum, extract.ExprStr:
		return
	case extract.ExprName, extract.ExprCall:
		if rest, ok := strings.CutPrefix(ex.Name, "self."); ok {
			attr, _, _ := strings.Cut(rest, ".")
			out[attr] = true
		}
	}
	selfAttrsIn(ex.Recv, out)
	for _, a := range ex.Args {
		selfAttrsIn(a, out)
	}
	for _, kw := range ex.Kw {
		selfAttrsIn(kw.Value, out)
	}
	for _, e := range ex.Elems {
		selfAttrsIn(e, out)
	}
}
