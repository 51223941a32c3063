package incremental

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// index resolves names across the files of one snapshot. Names connect only
// through imports (or within one file): two files that merely use the same
// name never do.
type index struct {
	files   []*extract.File
	byPath  map[string]*extract.File
	byMod   map[string][]*extract.File // module name and every dotted suffix of it
	byScope map[*extract.Scope]*extract.File
	// rec, when set, hears every module lookup: the way Python resolution
	// crosses from one file to another, so it tells which files a group of
	// files depends on (components.go; the joins of configs and other
	// sources are grouped there without it).
	rec func(from *extract.File, name string, found *extract.File)
}

func newIndex(files []*extract.File) *index {
	ix := &index{files: files, byMod: map[string][]*extract.File{}, byScope: map[*extract.Scope]*extract.File{},
		byPath: make(map[string]*extract.File, len(files))}
	for _, f := range files {
		ix.byPath[f.Path] = f
		if f.Scope != nil {
			ix.byScope[f.Scope] = f
		}
		if f.Lang != extract.LangPython || f.Module == "" {
			continue
		}
		// A module is importable under each dotted suffix of its path: the
		// scan root need not be the package root (src/ layouts).
		parts := strings.Split(f.Module, ".")
		for i := range parts {
			key := strings.Join(parts[i:], ".")
			ix.byMod[key] = append(ix.byMod[key], f)
		}
	}
	return ix
}

// fileOf returns the file a scope belongs to.
func (ix *index) fileOf(sc *extract.Scope) *extract.File {
	for sc != nil && sc.Parent != nil {
		sc = sc.Parent
	}
	return ix.byScope[sc]
}

// fileAt finds a file of the tree by its path, for a config that names it
// (a hook script of a Claude Code settings file). The lookup is recorded
// under "file:"+path, so that the file's coming, going or changing
// rebuilds what read it.
func (ix *index) fileAt(rel string, from *extract.File) (found *extract.File) {
	if ix.rec != nil {
		defer func() { ix.rec(from, fileName(rel), found) }()
	}
	return ix.byPath[rel]
}

// fileName is the name a path lookup is recorded under.
func fileName(rel string) string { return "file:" + rel }

// module finds the file of a dotted module name imported from `from`.
// Among several files with that suffix, the one nearest the importer wins.
func (ix *index) module(name string, from *extract.File) (found *extract.File) {
	if ix.rec != nil {
		defer func() { ix.rec(from, name, found) }()
	}
	cands := ix.byMod[name]
	switch len(cands) {
	case 0:
		return nil
	case 1:
		return cands[0]
	}
	var best *extract.File
	bestScore := -1
	for _, c := range cands {
		if c.Module == name {
			return c
		}
		s := commonPrefix(c.Path, from.Path)
		if s > bestScore {
			best, bestScore = c, s
		}
	}
	return best
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// target is what a name denotes after following imports.
type target struct {
	file *extract.File
	bind *extract.Binding // nil when the name is a whole module
	name string
}

// lookup resolves a dotted name in a scope, following imports into other
// files of the tree (re-exports included). ok is false when the name leads
// outside the tree or nowhere.
func (ix *index) lookup(sc *extract.Scope, dotted string, depth int) (target, bool) {
	if depth > 8 || sc == nil {
		return target{}, false
	}
	from := ix.fileOf(sc)
	head, rest, _ := strings.Cut(dotted, ".")
	b := lastDefining(sc.Lookup(head))
	if b == nil {
		return target{}, false
	}
	if b.Kind != extract.BindImport {
		switch {
		case rest == "":
			return target{file: from, bind: b, name: head}, true
		case b.Kind == extract.BindClass && !strings.Contains(rest, "."):
			return target{file: from, bind: b, name: dotted}, true // Class.method
		}
		return target{}, false // attribute of a local value
	}
	// Follow the import: the longest importable module prefix of the
	// qualified name, then the symbol inside it.
	q := b.Imp.Qualified()
	if rest != "" {
		q += "." + rest
	}
	return ix.qualified(q, from, depth)
}

// lastDefining is the binding that gives a name its value: the last one
// that is not a list append (appends extend it; see builder.name).
func lastDefining(bs []*extract.Binding) *extract.Binding {
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].Kind != extract.BindAppend {
			return bs[i]
		}
	}
	return nil
}

// qualified resolves a fully qualified name (module path + symbol).
func (ix *index) qualified(q string, from *extract.File, depth int) (target, bool) {
	parts := strings.Split(q, ".")
	for i := len(parts); i >= 1; i-- {
		mf := ix.module(strings.Join(parts[:i], "."), from)
		if mf == nil {
			continue
		}
		if i == len(parts) {
			return target{file: mf, name: q}, true
		}
		if i != len(parts)-1 {
			// mod.Class.method and deeper: resolve the first symbol only.
			sym := parts[i]
			t, ok := ix.lookup(mf.Scope, sym, depth+1)
			if ok && t.bind != nil && t.bind.Kind == extract.BindClass {
				t.name = strings.Join(parts[i:], ".")
			}
			return t, ok
		}
		return ix.lookup(mf.Scope, parts[i], depth+1)
	}
	return target{}, false
}

// callee implements effects.Resolver: the function a call runs.
func (ix *index) callee(c *extract.Call) *extract.Func {
	if c.Func == nil {
		return nil
	}
	sc := c.Func.Scope
	switch c.HeadKind {
	case extract.HeadLocal:
		return ix.funcOfName(sc, c.Qual)
	case extract.HeadSelf:
		cls, m, _ := strings.Cut(c.Qual, ".")
		if f := ix.fileOf(sc); f != nil {
			if cl := f.Classes[cls]; cl != nil {
				return cl.Methods[m]
			}
		}
	case extract.HeadObject:
		// Methods of local classes: "MyClient().send".
		head, m, ok := strings.Cut(c.Qual, "().")
		if !ok || strings.Contains(m, ".") || strings.Contains(m, "()") {
			return nil
		}
		t, ok := ix.lookup(sc, head, 0)
		if !ok {
			// The type is import-qualified (agents.MarketingAnalysisAgents).
			if from := ix.fileOf(sc); from != nil {
				t, ok = ix.qualified(head, from, 0)
			}
		}
		if !ok || t.bind == nil || t.bind.Kind != extract.BindClass {
			return nil
		}
		return t.bind.Class.Methods[m]
	case extract.HeadImport:
		from := ix.fileOf(sc)
		if from == nil {
			return nil
		}
		t, ok := ix.qualified(c.Qual, from, 0)
		if !ok {
			return nil
		}
		return funcOfTarget(t)
	}
	return nil
}

func (ix *index) funcOfName(sc *extract.Scope, name string) *extract.Func {
	t, ok := ix.lookup(sc, strings.SplitN(name, ".", 2)[0], 0)
	if !ok {
		return nil
	}
	if strings.Contains(name, ".") && t.bind != nil && t.bind.Kind == extract.BindClass {
		t.name = name
	}
	return funcOfTarget(t)
}

func funcOfTarget(t target) *extract.Func {
	if t.bind == nil {
		return nil
	}
	switch t.bind.Kind {
	case extract.BindDef:
		return t.bind.Func
	case extract.BindClass:
		cl := t.bind.Class
		if _, m, ok := strings.Cut(t.name, "."); ok {
			return cl.Methods[m]
		}
		if init := cl.Methods["__init__"]; init != nil {
			return init // constructing it runs __init__
		}
		if dataClass(cl, 0) {
			return noCode
		}
	}
	return nil
}

// noCode stands for a constructor that runs no code of its own.
var noCode = &extract.Func{Name: "__init__", Qual: "<data class>.__init__"}

// dataBases are bases whose construction only stores fields.
var dataBases = map[string]bool{"BaseModel": true, "TypedDict": true, "NamedTuple": true, "Enum": true,
	"IntEnum": true, "StrEnum": true, "Exception": true, "object": true, "Protocol": true, "Generic": true, "ABC": true}

// dataClass reports whether constructing a class without __init__ runs no
// code: its bases are data bases (pydantic, TypedDict, Enum, exceptions) or
// local classes of the same kind.
func dataClass(cl *extract.Class, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, b := range cl.Bases {
		name := b.Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if strings.HasSuffix(name, "]") || dataBases[name] {
			continue
		}
		if bs := cl.Scope.Lookup(b.Name); len(bs) > 0 && bs[len(bs)-1].Kind == extract.BindClass {
			base := bs[len(bs)-1].Class
			if base.Methods["__init__"] == nil && dataClass(base, depth+1) {
				continue
			}
		}
		return false
	}
	return true
}

// funcOf implements effects.Resolver: the function an expression names.
func (ix *index) funcOf(e *extract.Expr) *extract.Func {
	if e == nil || e.Kind != extract.ExprName || e.Scope == nil {
		return nil
	}
	t, ok := ix.lookup(e.Scope, e.Name, 0)
	if !ok {
		return nil
	}
	return funcOfTarget(t)
}

// requalify implements effects.Resolver for calls on variables imported
// from another file of the tree.
func (ix *index) requalify(c *extract.Call) (string, bool) {
	if c.HeadKind != extract.HeadImport || c.Func == nil {
		return "", false
	}
	from := ix.fileOf(c.Func.Scope)
	if from == nil {
		return "", false
	}
	// The longest prefix of the name that is a module-level variable.
	parts := strings.Split(strings.ReplaceAll(c.Qual, "().", "."), ".")
	for i := len(parts) - 1; i >= 1; i-- {
		t, ok := ix.qualified(strings.Join(parts[:i], "."), from, 0)
		if !ok || t.bind == nil {
			continue
		}
		if t.bind.Kind != extract.BindAssign || t.bind.Value == nil {
			return "", false
		}
		v := t.bind.Value
		rest := strings.Join(parts[i:], ".")
		switch {
		case v.Type != "":
			return v.Type + "." + rest, true
		case v.Kind == extract.ExprStr || v.Kind == extract.ExprFString || v.Kind == extract.ExprNum ||
			v.Kind == extract.ExprList || v.Kind == extract.ExprDict || v.Kind == extract.ExprConcat:
			return "", true
		}
		return "", false
	}
	return "", false
}

// resolver adapts index to effects.Resolver.
type resolver struct{ ix *index }

func (r resolver) Callee(c *extract.Call) *extract.Func     { return r.ix.callee(c) }
func (r resolver) FuncOf(e *extract.Expr) *extract.Func     { return r.ix.funcOf(e) }
func (r resolver) Requalify(c *extract.Call) (string, bool) { return r.ix.requalify(c) }
