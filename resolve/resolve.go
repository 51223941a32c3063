package resolve

import (
	"path"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// index resolves names across the files of one snapshot. Names connect only
// through imports (or within one file): two files that merely use the same
// name never do.
type Index struct {
	files   []*extract.File
	byPath  map[string]*extract.File
	byMod   map[string][]*extract.File // module name and every dotted suffix of it
	byScope map[*extract.Scope]*extract.File
	// rec, when set, hears every module lookup: the way Python resolution
	// crosses from one file to another, so it tells which files a group of
	// files depends on (components.go; the joins of configs and other
	// sources are grouped there without it).
	Rec func(from *extract.File, name string, found *extract.File)
	// ts holds the tree's tsconfig and package.json facts (tsmodules.go).
	ts *tsIndex
	// ctors are the construction sites of classes (ctorsites.go), indexed
	// on first use.
	ctors *ctorSites
	// subs are the classes of the tree by the bases they name
	// (overrides.go), indexed on first use.
	subs *subclassIndex
	// inline are the functions written as expressions inside another
	// function (a TypeScript arrow function passed as an argument), by
	// where they are written: the expression that is one names no binding.
	inline map[extract.Loc]*extract.Func
}

func NewIndex(files []*extract.File) *Index {
	ix := &Index{files: files, byMod: map[string][]*extract.File{}, byScope: map[*extract.Scope]*extract.File{},
		byPath: make(map[string]*extract.File, len(files)), ts: newTSIndex(files), ctors: &ctorSites{}, subs: &subclassIndex{}}
	for _, f := range files {
		ix.byPath[f.Path] = f
		if f.Scope != nil {
			ix.byScope[f.Scope] = f
		}
		if f.Lang == extract.LangTypeScript || f.Lang == extract.LangJavaScript {
			for _, fn := range f.Funcs {
				if fn.Parent != nil {
					if ix.inline == nil {
						ix.inline = map[extract.Loc]*extract.Func{}
					}
					ix.inline[fn.Loc] = fn
				}
			}
		}
		// The keys are the front end's (a Python module is importable
		// under each dotted suffix of its path; a TypeScript one under its
		// path from the root).
		for _, key := range f.Keys {
			ix.byMod[key] = append(ix.byMod[key], f)
		}
	}
	return ix
}

// fileOf returns the file a scope belongs to.
func (ix *Index) fileOf(sc *extract.Scope) *extract.File {
	for sc != nil && sc.Parent != nil {
		sc = sc.Parent
	}
	return ix.byScope[sc]
}

// fileAt finds a file of the tree by its path, for a config that names it
// (a hook script of a Claude Code settings file). The lookup is recorded
// under "file:"+path, so that the file's coming, going or changing
// rebuilds what read it.
func (ix *Index) fileAt(rel string, from *extract.File) (found *extract.File) {
	if ix.Rec != nil {
		defer func() { ix.Rec(from, FileName(rel), found) }()
	}
	return ix.byPath[rel]
}

// fileName is the name a path lookup is recorded under.
func FileName(rel string) string { return "file:" + rel }

// module finds the file of a dotted module name imported from `from`.
// Among several files with that suffix, the one nearest the importer wins.
func (ix *Index) module(name string, from *extract.File) (found *extract.File) {
	if ix.Rec != nil {
		defer func() { ix.Rec(from, name, found) }()
	}
	cands := ix.byMod[name]
	if len(cands) == 0 && isJS(from) {
		// A package or path alias of TypeScript (tsmodules.go), as the
		// project's tsconfig maps it; only a project without one falls
		// back to the template layouts of "@/" and "~/".
		if f := ix.tsModule(name, from); f != nil || ix.tsconfigFor(from) != nil {
			return f
		}
		cands = ix.aliased(name, from)
	}
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

// aliased finds the files of a TypeScript path alias: "@/lib/tools" or
// "~/lib/tools", which no npm package can be named (a scope is never
// empty, a name never starts with "~"), is the project's own module
// through tsconfig's "paths" ("@/*": ["./*"] or ["./src/*"], the layouts
// Next.js, Vite and Nuxt templates write). The project is the nearest
// directory above the importer that holds the path, directly or under
// src/. It serves a scan that holds no tsconfig.json or jsconfig.json for
// the importer (one that leaves the config out); where one is, its paths
// decide.
func (ix *Index) aliased(name string, from *extract.File) []*extract.File {
	rest, ok := strings.CutPrefix(name, "@/")
	if !ok {
		rest, ok = strings.CutPrefix(name, "~/")
	}
	if !ok || rest == "" || from == nil {
		return nil
	}
	dir := path.Dir(from.Path)
	for {
		base := ""
		if dir != "." && dir != "/" {
			base = dir + "/"
		}
		for _, key := range []string{base + rest, base + "src/" + rest} {
			if fs := ix.byMod[key]; len(fs) > 0 {
				return fs
			}
		}
		if base == "" {
			return nil
		}
		dir = path.Dir(dir)
	}
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
func (ix *Index) lookup(sc *extract.Scope, dotted string, depth int) (target, bool) {
	if depth > 8 || sc == nil {
		return target{}, false
	}
	from := ix.fileOf(sc)
	head, rest, _ := strings.Cut(dotted, ".")
	bs := sc.Lookup(head)
	b := lastDefining(bs)
	if b == nil {
		return ix.reExported(sc, from, dotted, depth)
	}
	if b.Kind == extract.BindAssign && b.Value != nil && b.Value.Kind == extract.ExprName && b.Value.Scope != nil {
		// An alias (Old = New, or Configuration = Configuration kept for
		// compatibility): the name denotes what it was given.
		alias := b.Value.Name
		if rest != "" {
			alias += "." + rest
		}
		if b.Value.Name == head {
			// Rebinding a name to itself: what it was before.
			for i := len(bs) - 1; i >= 0; i-- {
				if bs[i] == b {
					bs = bs[:i]
					break
				}
			}
			if prev := lastDefining(bs); prev != nil && prev.Kind != extract.BindAssign {
				b = prev
			} else {
				return target{}, false
			}
		} else {
			return ix.lookup(b.Value.Scope, alias, depth+1)
		}
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

// reExported looks a name a module does not bind up in the modules it
// re-exports whole (export * from "./x"; never the default export), in
// order.
func (ix *Index) reExported(sc *extract.Scope, from *extract.File, dotted string, depth int) (target, bool) {
	if from == nil || sc != from.Scope || len(from.ReExports) == 0 || dotted == "default" || strings.HasPrefix(dotted, "default.") {
		return target{}, false
	}
	for _, m := range from.ReExports {
		mf := ix.module(m, from)
		if mf == nil || mf == from {
			continue
		}
		if t, ok := ix.lookup(mf.Scope, dotted, depth+1); ok {
			return t, true
		}
	}
	return target{}, false
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
func (ix *Index) qualified(q string, from *extract.File, depth int) (target, bool) {
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
			if ok && t.bind == nil && t.file != nil && t.file != mf {
				// A module the file re-exports as a name (export * as ns
				// from "./x"): the rest is looked up in it.
				return ix.lookup(t.file.Scope, strings.Join(parts[i+1:], "."), depth+1)
			}
			return t, ok
		}
		return ix.lookup(mf.Scope, parts[i], depth+1)
	}
	return target{}, false
}

// callee implements effects.Resolver: the function a call runs.
func (ix *Index) callee(c *extract.Call) *extract.Func {
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
				return ix.methodOf(cl, m, 0)
			}
		}
	case extract.HeadObject:
		// Methods of local classes: "MyClient().send", and of the typed
		// attributes of their instances: "Outbox().items.append".
		head, rest, ok := strings.Cut(c.Qual, "().")
		if !ok || strings.Contains(rest, "()") {
			return nil
		}
		t, ok := ix.lookupOrQualified(sc, head)
		if ok && t.bind != nil && t.bind.Kind == extract.BindDef && !strings.Contains(t.name, ".") {
			// get_service().fetch(): a method of the in-tree class the
			// function returns an instance of.
			if cl := ix.returnedClass(t.bind.Func); cl != nil && !strings.Contains(rest, ".") {
				return ix.methodOf(cl, rest, 0)
			}
			return nil
		}
		if !ok || t.bind == nil || t.bind.Kind != extract.BindClass {
			return nil
		}
		cl := t.bind.Class
		path := strings.Split(rest, ".")
		if _, m, dotted := strings.Cut(t.name, "."); dotted && !returnsInstance(cl, m) {
			// Class.method(): its result is not known to be an instance.
			if len(path) == 1 {
				return cl.Methods[path[0]]
			}
			return nil
		}
		for _, attr := range path[:len(path)-1] {
			if cl = ix.attrClass(cl, attr); cl == nil {
				return nil
			}
		}
		return ix.methodOf(cl, path[len(path)-1], 0)
	case extract.HeadImport:
		from := ix.fileOf(sc)
		if from == nil {
			return nil
		}
		t, ok := ix.qualified(c.Qual, from, 0)
		if !ok {
			return ix.instanceMethod(c.Qual, from)
		}
		if fn := ix.funcOfTarget(t); fn != nil {
			return fn
		}
		// mod.instance.method, the instance resolved as the module's
		// symbol (a TypeScript export const slack = new Adapter()).
		return ix.instanceMethod(c.Qual, from)
	case extract.HeadUnknown:
		// cls(...) in a classmethod builds the class.
		if c.Qual == "cls" && c.Func.Class != "" {
			if f := ix.fileOf(sc); f != nil {
				if cl := f.Classes[c.Func.Class]; cl != nil {
					return ix.constructor(cl)
				}
			}
		}
	}
	return nil
}

// instanceMethod resolves mod.INSTANCE.method where INSTANCE is a
// module-level instance of an in-tree class (OUTBOX = Outbox()) of another
// file: the class's method.
func (ix *Index) instanceMethod(q string, from *extract.File) *extract.Func {
	i := strings.LastIndexByte(q, '.')
	if i <= 0 {
		return nil
	}
	t, ok := ix.qualified(q[:i], from, 0)
	if !ok || t.bind == nil || t.bind.Kind != extract.BindAssign || t.bind.Value == nil || t.file == nil {
		return nil
	}
	head, isCall := strings.CutSuffix(t.bind.Value.Type, "()")
	if !isCall {
		return nil
	}
	cl := ix.instanceClass(t.file.Scope, head)
	if cl == nil {
		return nil
	}
	return ix.methodOf(cl, q[i+1:], 0)
}

func (ix *Index) funcOfName(sc *extract.Scope, name string) *extract.Func {
	t, ok := ix.lookup(sc, strings.SplitN(name, ".", 2)[0], 0)
	if !ok {
		return nil
	}
	if strings.Contains(name, ".") && t.bind != nil && t.bind.Kind == extract.BindClass {
		t.name = name
	}
	return ix.funcOfTarget(t)
}

func (ix *Index) funcOfTarget(t target) *extract.Func {
	if t.bind == nil {
		return nil
	}
	switch t.bind.Kind {
	case extract.BindDef:
		return t.bind.Func
	case extract.BindClass:
		cl := t.bind.Class
		if _, m, ok := strings.Cut(t.name, "."); ok {
			return ix.methodOf(cl, m, 0)
		}
		return ix.constructor(cl)
	}
	return nil
}

// constructor is what building a class runs: its (inherited) __init__,
// or no code for a data class.
func (ix *Index) constructor(cl *extract.Class) *extract.Func {
	for _, m := range []string{"__init__", "constructor"} { // Python's, JavaScript's
		if init := ix.methodOf(cl, m, 0); init != nil && init != noCode {
			return init // constructing it runs its initialiser
		}
	}
	if dataClass(cl, 0) {
		return noCode
	}
	return nil
}

// methodOf finds a method of an in-tree class or of its in-tree bases.
// A method that none of them defines comes from a data base (pydantic's
// model_dump, a TypedDict's get, an Enum's value): no code of its own.
// Under any other base the method is unknown (nil: fail closed).
func (ix *Index) methodOf(cl *extract.Class, m string, depth int) *extract.Func {
	if cl == nil || depth > 6 {
		return nil
	}
	if f := cl.Methods[m]; f != nil {
		return f
	}
	for _, b := range cl.Bases {
		if base := ix.classNamed(cl.Scope, b.Name); base != nil && base != cl {
			if f := ix.methodOf(base, m, depth+1); f != nil && f != noCode {
				return f
			}
		}
	}
	if _, attr := cl.AttrTypes[m]; attr {
		return nil // a callable attribute (self.fn = …), not a method
	}
	if _, attr := cl.Attrs[m]; attr {
		return nil
	}
	if depth == 0 && m != "__init__" && ix.pureBases(cl, 0) {
		return noCode
	}
	return nil
}

// libraryMember qualifies a member path of an instance of cl that no code
// of the tree defines through the library class cl extends (class
// SlackAgentAdapter extends SlackAdapter, from "@chat-adapter/slack":
// slack.decodeThreadId is "@chat-adapter/slack.SlackAdapter.decodeThreadId",
// slack.webClient.files.list its webClient's). ok is false when the first
// member is the tree's (a method or attribute of cl or an in-tree base),
// or no base is imported.
func (ix *Index) libraryMember(cl *extract.Class, path []string, depth int) (string, bool) {
	if cl == nil || len(path) == 0 || depth > 6 {
		return "", false
	}
	m := path[0]
	if _, ok := cl.Attrs[m]; ok || cl.Methods[m] != nil || len(cl.SelfValues[m]) > 0 {
		return "", false
	}
	if _, ok := cl.AttrTypes[m]; ok {
		return "", false
	}
	for _, b := range cl.Bases {
		if b == nil || b.Name == "" || cl.Scope == nil {
			continue
		}
		if base := ix.classNamed(cl.Scope, b.Name); base != nil {
			if base == cl {
				continue
			}
			if q, ok := ix.libraryMember(base, path, depth+1); ok {
				return q, true
			}
			continue
		}
		head, rest, _ := strings.Cut(b.Name, ".")
		if bd := lastDefining(cl.Scope.Lookup(head)); bd != nil && bd.Kind == extract.BindImport {
			q := bd.Imp.Qualified()
			if rest != "" {
				q += "." + rest
			}
			return q + "." + strings.Join(path, "."), true
		}
	}
	return "", false
}

// pureBases reports whether every base of a class, through its in-tree
// bases, is a data base whose methods compute on the value only.
func (ix *Index) pureBases(cl *extract.Class, depth int) bool {
	if depth > 6 {
		return false
	}
	for _, b := range cl.Bases {
		name := b.Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if dataBases[name] || strings.HasSuffix(b.Name, "]") && dataBases[strings.SplitN(name, "[", 2)[0]] {
			continue
		}
		if base := ix.classNamed(cl.Scope, b.Name); base != nil && base != cl && ix.pureBases(base, depth+1) {
			continue
		}
		return false
	}
	return true
}

// fromDataBase reports whether an attribute that no code of the tree gives
// a class comes from a data base: the class has one (BaseModel,
// TypedDict, an Enum …) and every base is pure (pureBases).
func (ix *Index) fromDataBase(cl *extract.Class, attr string) bool {
	if _, ok := cl.AttrTypes[attr]; ok {
		return false
	}
	if _, ok := cl.Attrs[attr]; ok || cl.Methods[attr] != nil {
		return false
	}
	return ix.hasDataBase(cl, 0) && ix.pureBases(cl, 0)
}

func (ix *Index) hasDataBase(cl *extract.Class, depth int) bool {
	if depth > 6 {
		return false
	}
	for _, b := range cl.Bases {
		name := lastName(b.Name)
		if dataBases[name] && name != "object" && name != "Protocol" && name != "Generic" && name != "ABC" {
			return true
		}
		if base := ix.classNamed(cl.Scope, b.Name); base != nil && base != cl && ix.hasDataBase(base, depth+1) {
			return true
		}
	}
	return false
}

func lastName(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// classNamed is the in-tree class a name denotes in a scope, through imports.
func (ix *Index) classNamed(sc *extract.Scope, name string) *extract.Class {
	if name == "" || sc == nil {
		return nil
	}
	t, ok := ix.lookup(sc, name, 0)
	if !ok || t.bind == nil || t.bind.Kind != extract.BindClass || strings.Contains(t.name, ".") {
		return nil
	}
	return t.bind.Class
}

// attrClass is the in-tree class of an instance attribute, from its
// annotation or the literal it is given (AttrTypes).
func (ix *Index) attrClass(cl *extract.Class, attr string) *extract.Class {
	ty := bareType(ix.attrType(cl, attr, 0))
	if ty == "" {
		return nil
	}
	return ix.classNamed(cl.Scope, ty)
}

func (ix *Index) attrType(cl *extract.Class, attr string, depth int) string {
	if cl == nil || depth > 6 {
		return ""
	}
	if ty, ok := cl.AttrTypes[attr]; ok {
		return ty
	}
	for _, b := range cl.Bases {
		if base := ix.classNamed(cl.Scope, b.Name); base != nil && base != cl {
			if ty := ix.attrType(base, attr, depth+1); ty != "" {
				return ty
			}
		}
	}
	return ""
}

// bareType strips Optional[...] and "| None" from an annotation and
// returns the type it names: "Optional[list[str]]" is "list[str]",
// "Store | None" is "Store".
func bareType(ty string) string {
	ty = strings.Trim(strings.TrimSpace(ty), `"'`)
	for _, p := range []string{"Optional[", "typing.Optional["} {
		if strings.HasPrefix(ty, p) && strings.HasSuffix(ty, "]") {
			ty = ty[len(p) : len(ty)-1]
		}
	}
	if inner, ok := strings.CutPrefix(ty, "Promise<"); ok && strings.HasSuffix(inner, ">") {
		ty = inner[:len(inner)-1] // TypeScript: what an awaited call gives
	}
	if parts := strings.Split(ty, "|"); len(parts) == 2 {
		a, b := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		switch {
		case b == "None" || b == "undefined" || b == "null":
			ty = a
		case a == "None" || a == "undefined" || a == "null":
			ty = b
		}
	}
	return strings.TrimSpace(ty)
}

// builtinType reports whether an annotation names a builtin value type
// (or its typing alias), whose methods compute on the value in memory.
func builtinType(ty string) bool {
	head := strings.TrimPrefix(bareType(ty), "typing.")
	head = strings.TrimPrefix(head, "builtins.")
	head = strings.TrimPrefix(head, "collections.abc.")
	if i := strings.IndexByte(head, '['); i >= 0 {
		head = head[:i]
	}
	switch head {
	case "list", "dict", "set", "frozenset", "tuple", "str", "bytes", "bytearray", "int", "float", "bool", "complex",
		"List", "Dict", "Set", "FrozenSet", "Tuple", "Sequence", "Mapping", "MutableMapping", "MutableSequence",
		"Iterable", "Deque", "DefaultDict", "OrderedDict", "Counter", "deque", "defaultdict":
		return true
	}
	return false
}

// returnsInstance reports whether Class.m() gives an instance of the class:
// the alternative constructors of data classes (pydantic's model_validate,
// from_*), or an in-tree method annotated to return the class.
func returnsInstance(cl *extract.Class, m string) bool {
	if f := cl.Methods[m]; f != nil {
		rt := strings.Trim(strings.TrimSpace(f.ReturnType), `"'`)
		return rt == cl.Name || rt == "Self" || rt == "typing.Self" || rt == "typing_extensions.Self"
	}
	switch m {
	case "model_validate", "model_validate_json", "model_validate_strings", "model_construct", "model_copy",
		"parse_obj", "parse_raw", "parse_file", "construct", "copy", "from_orm":
		return true
	}
	return strings.HasPrefix(m, "from_")
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
func (ix *Index) funcOf(e *extract.Expr) *extract.Func {
	if e == nil || e.Kind != extract.ExprName || e.Scope == nil {
		return nil
	}
	if m, ok := strings.CutPrefix(e.Name, "."); ok && e.Recv != nil {
		return ix.methodOfInstance(e.Recv, m, e.Scope)
	}
	t, ok := ix.lookup(e.Scope, e.Name, 0)
	if !ok {
		return ix.boundMethod(e)
	}
	return ix.funcOfTarget(t)
}

// boundMethod is the method a name such as nodes.check_email denotes when
// nodes holds an instance of an in-tree class (nodes = Nodes(), here or
// at module level, the class here or imported): a graph node or tool given
// as a bound method.
func (ix *Index) boundMethod(e *extract.Expr) *extract.Func {
	head, m, ok := strings.Cut(e.Name, ".")
	if !ok || strings.Contains(m, ".") {
		return nil
	}
	if head == "self" && e.Scope.Func != nil && e.Scope.Func.Class != "" {
		// Tool(func=self.discover): a method of the class it is written in.
		if f := ix.fileOf(e.Scope); f != nil && f.Classes[e.Scope.Func.Class] != nil {
			if fn := ix.methodOf(f.Classes[e.Scope.Func.Class], m, 0); fn != noCode {
				return fn
			}
		}
		return nil
	}
	b := lastDefining(e.Scope.Lookup(head))
	if b == nil || b.Kind != extract.BindAssign || b.Value == nil || b.Value.Kind != extract.ExprCall {
		return nil
	}
	ty, isCall := strings.CutSuffix(b.Value.Type, "()")
	if !isCall || ty == "" {
		return nil
	}
	sc := b.Value.Scope
	if sc == nil {
		sc = e.Scope
	}
	cl := ix.instanceClass(sc, ty)
	if cl == nil {
		return nil
	}
	fn := ix.methodOf(cl, m, 0)
	if fn == noCode {
		return nil
	}
	return fn
}

// methodOfInstance is the method m of the in-tree class whose instance the
// call recv builds (`EmailFilterCrew().kickoff` as a graph node), or nil.
func (ix *Index) methodOfInstance(recv *extract.Expr, m string, sc *extract.Scope) *extract.Func {
	if recv.Kind != extract.ExprCall || strings.Contains(m, ".") {
		return nil
	}
	ty, isCall := strings.CutSuffix(recv.Type, "()")
	if !isCall || ty == "" {
		return nil
	}
	if recv.Scope != nil {
		sc = recv.Scope
	}
	fn := ix.methodOf(ix.instanceClass(sc, ty), m, 0)
	if fn == noCode {
		return nil
	}
	return fn
}

// requalify implements effects.Resolver for calls on variables imported
// from another file of the tree, and for calls on typed attributes of
// in-tree class instances (attrQual).
func (ix *Index) requalify(c *extract.Call) (string, bool) {
	if c.HeadKind == extract.HeadObject && c.Func != nil {
		if q, ok := ix.attrQual(c); ok {
			return q, ok
		}
		if q, ok := ix.resultQual(c); ok {
			return q, ok
		}
		// A method on what a call of an import-qualified receiver returned
		// (slack.fetchMessages(…).messages.map with slack a module-level
		// instance): the receiver's call requalified, the chain kept.
		head, rest, ok := strings.Cut(c.Qual, "().")
		if !ok {
			return "", false
		}
		inner := *c
		inner.Qual, inner.HeadKind = head, extract.HeadImport
		if q, ok := ix.requalify(&inner); ok && q != "" {
			return q + "()." + rest, true
		}
		return "", false
	}
	if c.HeadKind == extract.HeadUnknown && c.Func != nil {
		return ix.clsQual(c)
	}
	if c.HeadKind == extract.HeadSelf && c.Func != nil {
		// self.method() the class inherits from a library class.
		cls, m, _ := strings.Cut(c.Qual, ".")
		if f := ix.fileOf(c.Func.Scope); f != nil && f.Classes[cls] != nil && m != "" {
			return ix.libraryMember(f.Classes[cls], strings.Split(m, "."), 0)
		}
		return "", false
	}
	if c.HeadKind != extract.HeadImport || c.Func == nil {
		return "", false
	}
	from := ix.fileOf(c.Func.Scope)
	if from == nil {
		return "", false
	}
	// The shortest prefix of the name that is a symbol of a module (its
	// first non-module component): the rest are its attributes and method.
	parts := strings.Split(strings.ReplaceAll(c.Qual, "().", "."), ".")
	for i := 1; i < len(parts); i++ {
		t, ok := ix.qualified(strings.Join(parts[:i], "."), from, 0)
		if !ok || t.bind == nil {
			continue
		}
		if t.bind.Kind == extract.BindClass {
			// Class.attr.method(): attributes of an in-tree class (a
			// configuration object built by a classmethod).
			_, attrs, _ := strings.Cut(t.name, ".")
			path := parts[i:]
			if attrs != "" {
				path = append(strings.Split(attrs, "."), path...)
			}
			if q, ok := ix.libraryMember(t.bind.Class, path, 0); ok {
				return q, true
			}
			if len(path) < 2 {
				return "", false
			}
			return ix.pathQual(t.bind.Class, path)
		}
		if t.bind.Kind != extract.BindAssign || t.bind.Value == nil {
			return "", false
		}
		v := t.bind.Value
		rest := strings.Join(parts[i:], ".")
		if head, ok := strings.CutSuffix(v.Type, "()"); ok && t.file != nil && len(parts[i:]) >= 1 {
			// A module-level instance of an in-tree class (OUTBOX = Outbox(),
			// or one the front end typed by its import-qualified class).
			cl := ix.classNamed(t.file.Scope, head)
			if cl == nil {
				if ct, ok := ix.qualified(head, t.file, 0); ok && ct.bind != nil && ct.bind.Kind == extract.BindClass && !strings.Contains(ct.name, ".") {
					cl = ct.bind.Class
				}
			}
			if cl != nil {
				if q, ok := ix.libraryMember(cl, parts[i:], 0); ok {
					return q, true
				}
				if len(parts[i:]) >= 2 {
					return ix.pathQual(cl, parts[i:])
				}
			}
		}
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

// resultQual rewrites a call on the result of a call of an in-tree
// function through the function's return annotation (f().method(), with
// chat(): Chat imported from a library, is chat.Chat.method; the rest of
// the chain stays for the rules to type). "" with ok for a builtin value
// type; ok is false without an annotation acg can follow.
func (ix *Index) resultQual(c *extract.Call) (string, bool) {
	head, rest, ok := strings.Cut(c.Qual, "().")
	if !ok || rest == "" {
		return "", false
	}
	if m, after, ok := strings.Cut(rest, "()."); ok && !strings.Contains(m, ".") {
		if ix.valueClass(c.Func.Scope, head) != nil {
			head, rest = head+"()."+m, after // Conn().send_message().model_dump_json
		}
	}
	fn := ix.resultFunc(c.Func.Scope, head)
	if fn == nil {
		return "", false
	}
	if fn.ReturnType == "" {
		// No annotation: what every return builds, when that is one
		// library call's value (authenticate() returning build("gmail",
		// "v1", ...)), as the rules type it.
		if ty := ix.returnsType(fn); ty != "" {
			return ty + "." + rest, true
		}
	}
	ty := bareType(fn.ReturnType)
	if ty == "" || fn.Scope == nil {
		return "", false
	}
	if builtinType(ty) {
		return "", true
	}
	th, tr, _ := strings.Cut(ty, ".")
	if b := lastDefining(fn.Scope.Lookup(th)); b != nil && b.Kind == extract.BindImport {
		q := b.Imp.Qualified()
		if tr != "" {
			q += "." + tr
		}
		return q + "." + rest, true
	}
	return "", false
}

// returnsType is the value type ("q()") that every return of fn has,
// when each builds it with a call of a library (HeadImport) or reads it
// back from a module-level cache holding only such values
// (return _services[key] after _services[key] = build("gmail", ...)), else
// "". `return None` gives no value: a method called on it raises.
func (ix *Index) returnsType(fn *extract.Func) string {
	ty := ""
	for _, x := range fn.ReturnExprs {
		t, none := ix.valueType(fn, x, 0)
		if none {
			continue
		}
		if t == "" || ty != "" && t != ty {
			return ""
		}
		ty = t
	}
	return ty
}

// valueType is the library value type of x in fn (see returnsType); none
// reports None.
func (ix *Index) valueType(fn *extract.Func, x *extract.Expr, depth int) (ty string, none bool) {
	x = extract.Deref(x)
	switch {
	case x == nil:
		return "", false
	case x.Kind == extract.ExprNone:
		return "", true
	case x.Kind == extract.ExprCall && x.Call != nil && x.Call.HeadKind == extract.HeadImport && strings.HasSuffix(x.Type, "()"):
		return x.Type, false
	case x.Kind == extract.ExprSubscript && len(x.Elems) == 2 && depth == 0:
		return ix.cacheType(fn, x.Elems[0]), false
	}
	return "", false
}

// cacheType is the one library value type of what a module-level dict
// holds: its literal's values and every d[key] = v of its file's code.
func (ix *Index) cacheType(fn *extract.Func, d *extract.Expr) string {
	f := ix.fileOf(fn.Scope)
	if d == nil || d.Kind != extract.ExprName || strings.Contains(d.Name, ".") || f == nil || d.Scope == nil {
		return ""
	}
	b := lastDefining(d.Scope.Lookup(d.Name))
	if b == nil || b.Kind != extract.BindAssign || b.Value == nil || b.Value.Kind != extract.ExprDict ||
		lastDefining(f.Scope.Bindings[d.Name]) != b {
		return ""
	}
	ty := ""
	same := func(v *extract.Expr, in *extract.Func) bool {
		t, none := ix.valueType(in, v, 1)
		if none {
			return true
		}
		if t == "" || ty != "" && t != ty {
			return false
		}
		ty = t
		return true
	}
	for _, v := range b.Value.Elems {
		if !same(v, fn) {
			return ""
		}
	}
	for _, g := range f.Funcs {
		for _, it := range g.Items {
			if it.Name == d.Name && lastDefining(g.Scope.Lookup(d.Name)) == b && !same(it.Value, g) {
				return ""
			}
		}
	}
	return ty
}

// valueClass is the in-tree class of the value head() gives: the class
// built (instanceClass) or the one a function returns (returnedClass).
func (ix *Index) valueClass(sc *extract.Scope, head string) *extract.Class {
	if cl := ix.instanceClass(sc, head); cl != nil {
		return cl
	}
	if t, ok := ix.lookupOrQualified(sc, head); ok && t.bind != nil && t.bind.Kind == extract.BindDef && !strings.Contains(t.name, ".") {
		return ix.returnedClass(t.bind.Func)
	}
	return nil
}

// returnedClass is the in-tree class whose instance every call of fn
// returns: its return annotation, or without one what every return
// builds (a module-level singleton made on first use), None aside.
func (ix *Index) returnedClass(fn *extract.Func) *extract.Class {
	if fn == nil || fn.Scope == nil {
		return nil
	}
	if fn.ReturnType != "" {
		return ix.classNamed(fn.Scope, bareType(fn.ReturnType))
	}
	var cl *extract.Class
	for _, x := range fn.ReturnExprs {
		x = extract.Deref(x)
		if x != nil && x.Kind == extract.ExprNone {
			continue
		}
		if x == nil || x.Kind != extract.ExprCall || !strings.HasSuffix(x.Type, "()") {
			return nil
		}
		sc := x.Scope
		if sc == nil {
			sc = fn.Scope
		}
		c := ix.instanceClass(sc, strings.TrimSuffix(x.Type, "()"))
		if c == nil || cl != nil && c != cl {
			return nil
		}
		cl = c
	}
	return cl
}

// resultFunc is the in-tree function a call head names: a function
// (chat), or a method of an instance of an in-tree class
// (conn.Conn().send_message, the front end's type of a Conn instance).
func (ix *Index) resultFunc(sc *extract.Scope, head string) *extract.Func {
	if inst, m, ok := strings.Cut(head, "()."); ok {
		if strings.Contains(m, ".") {
			return nil
		}
		cl := ix.valueClass(sc, inst)
		if cl == nil {
			return nil
		}
		if fn := ix.methodOf(cl, m, 0); fn != noCode {
			return fn
		}
		return nil
	}
	t, ok := ix.lookupOrQualified(sc, head)
	if !ok || t.bind == nil {
		return nil
	}
	if _, m, ok := strings.Cut(t.name, "."); ok && t.bind.Kind == extract.BindClass && !strings.Contains(m, ".") {
		if fn := ix.methodOf(t.bind.Class, m, 0); fn != noCode {
			return fn // Conn.send_message, the method of a Conn instance
		}
		return nil
	}
	if t.bind.Kind != extract.BindDef || t.bind.Func == nil || strings.Contains(t.name, ".") {
		return nil
	}
	return t.bind.Func
}

// attrQual rewrites a call on a typed attribute of an in-tree class
// instance ("Outbox().items.append" where items: list[Draft]): "" with ok
// for a builtin value type (its methods compute in memory), the imported
// type plus the method for a library type (client: httpx.Client gives
// "httpx.Client.post"). ok is false when the type is unknown.
func (ix *Index) attrQual(c *extract.Call) (string, bool) {
	head, rest, ok := strings.Cut(c.Qual, "().")
	if !ok {
		return "", false
	}
	// Config().llm.invoke().content.split: the method is llm's invoke, and
	// what follows is a chain on its result, kept for the rules.
	rest, tail, chained := strings.Cut(rest, "().")
	if strings.Contains(rest, "()") || !strings.Contains(rest, ".") {
		return "", false
	}
	cl := ix.instanceClass(c.Func.Scope, head)
	if cl == nil {
		return "", false
	}
	q, ok := ix.pathQual(cl, strings.Split(rest, "."))
	if ok && chained && q != "" {
		q += "()." + tail
	}
	return q, ok
}

// lookupOrQualified resolves a name in scope, else as an import-qualified
// name (agents.MarketingAnalysisAgents) from the scope's file.
func (ix *Index) lookupOrQualified(sc *extract.Scope, name string) (target, bool) {
	if t, ok := ix.lookup(sc, name, 0); ok {
		return t, true
	}
	if from := ix.fileOf(sc); from != nil {
		return ix.qualified(name, from, 0)
	}
	return target{}, false
}

// instanceClass is the in-tree class of the value head() builds: the class
// itself (Outbox()), or a classmethod that returns an instance
// (Configuration.from_runnable_config()); the name may be import-qualified.
func (ix *Index) instanceClass(sc *extract.Scope, head string) *extract.Class {
	t, ok := ix.lookupOrQualified(sc, head)
	if !ok || t.bind == nil || t.bind.Kind != extract.BindClass {
		return nil
	}
	cl := t.bind.Class
	if _, m, dotted := strings.Cut(t.name, "."); dotted && !returnsInstance(cl, m) {
		return nil
	}
	return cl
}

// clsQual rewrites cls.attr.method() in a classmethod like attrQual, and
// reads an attribute no code of the tree defines on a data class
// (pydantic's cls.model_fields) as data of its base.
func (ix *Index) clsQual(c *extract.Call) (string, bool) {
	rest, ok := strings.CutPrefix(c.Qual, "cls.")
	if !ok || c.Func.Class == "" || strings.Contains(rest, "()") || !strings.Contains(rest, ".") {
		return "", false
	}
	f := ix.fileOf(c.Func.Scope)
	if f == nil || f.Classes[c.Func.Class] == nil {
		return "", false
	}
	return ix.pathQual(f.Classes[c.Func.Class], strings.Split(rest, "."))
}

// pathQual follows attributes from an in-tree class to the method called
// on the last one (see attrQual).
func (ix *Index) pathQual(cl *extract.Class, path []string) (string, bool) {
	for i, attr := range path[:len(path)-1] {
		ty := bareType(ix.attrType(cl, attr, 0))
		if st, ok := cl.SelfTypes[attr]; ok && ty == "" && strings.HasSuffix(st, "()") {
			// self.llm = ChatOpenAI(...) in a method: the value type of the
			// call, already qualified by the front end.
			head := strings.TrimSuffix(st, "()")
			if next := ix.classNamed(cl.Scope, head); next != nil {
				cl = next
				continue
			}
			return head + "()." + strings.Join(path[i+1:], "."), true
		}
		switch {
		case ty == "" && i == 0 && ix.fromDataBase(cl, attr):
			return "", true
		case ty == "":
			return ix.libraryMember(cl, path[i:], 0)
		case builtinType(ty):
			return "", true
		}
		if next := ix.classNamed(cl.Scope, ty); next != nil {
			cl = next
			continue
		}
		// A library type: qualify it through the imports of the class's file.
		th, tr, _ := strings.Cut(ty, ".")
		if i := strings.IndexByte(tr, '['); i >= 0 {
			tr = tr[:i]
		}
		if b := lastDefining(cl.Scope.Lookup(th)); b != nil && b.Kind == extract.BindImport {
			q := b.Imp.Qualified()
			if tr != "" {
				q += "." + tr
			}
			return q + "." + strings.Join(path[i+1:], "."), true
		}
		return "", false
	}
	return "", false
}

// typeOnlyValue reports a call on a value typed by a name that an in-tree
// module declares only as a type (state: GenerateThreadState, with
// type GenerateThreadState = typeof Annotation.State): a type alias or
// interface is erased at run time, so neither the value nor a member of it
// has code of the tree, and what acg can say of a member whose type it
// does not know is what it says of any value of unknown type.
func (ix *Index) typeOnlyValue(c *extract.Call) bool {
	if c.HeadKind != extract.HeadObject || c.Func == nil {
		return false
	}
	head, _, ok := strings.Cut(c.Qual, "().")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(head, '.')
	from := ix.fileOf(c.Func.Scope)
	if i <= 0 || from == nil || !isJS(from) {
		return false
	}
	mf := ix.module(head[:i], from)
	if mf == nil || !mf.TypeNames[head[i+1:]] {
		return false
	}
	_, value := ix.lookup(mf.Scope, head[i+1:], 0)
	return !value
}

// resolver adapts index to effects.Resolver.
type resolver struct{ ix *Index }

func (r resolver) Callee(c *extract.Call) *extract.Func     { return r.ix.callee(c) }
func (r resolver) FuncOf(e *extract.Expr) *extract.Func     { return r.ix.funcOf(e) }
func (r resolver) Requalify(c *extract.Call) (string, bool) { return r.ix.requalify(c) }
func (r resolver) TypeOnly(c *extract.Call) bool            { return r.ix.typeOnlyValue(c) }

// Overrides implements effects.OverrideResolver.
func (r resolver) Overrides(fn *extract.Func) []*extract.Func { return r.ix.overrides(fn) }

// Inline implements effects.InlineResolver: the function an argument
// expression is when it is written there (xs.map(async (u) => ...)).
func (r resolver) Inline(e *extract.Expr) *extract.Func {
	if e == nil || e.Kind != extract.ExprName || e.Scope != nil {
		return nil
	}
	return r.ix.inline[e.Loc]
}

// AttrType implements effects.AttrResolver: the value type ("T()") of the
// attribute a call's receiver names through self when every value the
// class stores in it is the result of a call of the tree whose every
// return has that type (self.service = self._service(), which returns
// build("gmail", "v1")), else "".
func (r resolver) AttrType(c *extract.Call) string {
	if c.Func == nil || c.Func.Class == "" || c.Expr == nil || c.Expr.Recv != nil {
		return ""
	}
	path := strings.Split(c.Expr.Name, ".")
	if len(path) < 3 || path[0] != "self" {
		return ""
	}
	f := r.ix.fileOf(c.Func.Scope)
	if f == nil || f.Classes[c.Func.Class] == nil {
		return ""
	}
	cl := f.Classes[c.Func.Class]
	vs := cl.SelfValues[path[1]]
	if len(vs) == 0 {
		// A class-level attribute (converter = Markdown()): every instance
		// shares the object its value builds.
		v := cl.Attrs[path[1]]
		if v == nil || v.Kind != extract.ExprCall || v.Call == nil || !strings.HasSuffix(v.Type, "()") {
			return ""
		}
		if r.ix.callee(v.Call) == nil || r.ix.instanceClass(v.Scope, strings.TrimSuffix(v.Type, "()")) != nil {
			return v.Type // a library object, or an instance of a class of the tree
		}
		vs = []*extract.Expr{v} // a helper's result: typed by its returns, below
	}
	ty := ""
	for _, v := range vs {
		if pt, ok := r.ix.ctorParamType(cl, v); ok {
			// self.browser = browser, a parameter of __init__: the type
			// every construction site of the class passes.
			if pt == "" || ty != "" && pt != ty {
				return ""
			}
			ty = pt
			continue
		}
		if v == nil || v.Kind != extract.ExprCall || v.Call == nil {
			return ""
		}
		fn := r.ix.callee(v.Call)
		if fn == nil || fn == noCode || len(fn.ReturnExprs) == 0 {
			return ""
		}
		for _, x := range fn.ReturnExprs {
			x = extract.Deref(x)
			if x == nil || !strings.HasSuffix(x.Type, "()") || ty != "" && x.Type != ty {
				return ""
			}
			ty = x.Type
		}
	}
	return ty
}

// storedInstance is the in-tree class of the instances a class stores in
// an attribute when every value it assigns there builds one of that class
// (self.agents = Agents()), else nil.
func (ix *Index) storedInstance(cl *extract.Class, attr string) *extract.Class {
	if cl == nil {
		return nil
	}
	var out *extract.Class
	for _, v := range cl.SelfValues[attr] {
		if v == nil || v.Kind != extract.ExprCall || v.Scope == nil {
			return nil
		}
		ty, ok := strings.CutSuffix(v.Type, "()")
		if !ok || ty == "" {
			return nil
		}
		c := ix.instanceClass(v.Scope, ty)
		if c == nil || out != nil && c != out {
			return nil
		}
		out = c
	}
	return out
}

// AttrValues implements effects.AttrResolver: the values the class stores
// in the attribute a call's receiver names through self
// (self.agents.categorize_email.invoke(...) with self.agents = Agents()
// and Agents.__init__ setting self.categorize_email = prompt | llm).
// nil when the path leaves the tree's classes or a value is unreadable.
func (r resolver) AttrValues(c *extract.Call) []*extract.Expr {
	if c.Func == nil || c.Func.Class == "" || c.Expr == nil || c.Expr.Recv != nil {
		return nil
	}
	path := strings.Split(c.Expr.Name, ".")
	if len(path) < 3 || path[0] != "self" {
		return nil
	}
	f := r.ix.fileOf(c.Func.Scope)
	if f == nil {
		return nil
	}
	cl := f.Classes[c.Func.Class]
	attrs := path[1 : len(path)-1] // the method is the last element
	for _, attr := range attrs[:len(attrs)-1] {
		next := r.ix.attrClass(cl, attr)
		if next == nil {
			next = r.ix.storedInstance(cl, attr) // self.agents = Agents()
		}
		if cl = next; cl == nil {
			return nil
		}
	}
	if cl == nil {
		return nil
	}
	vs := cl.SelfValues[attrs[len(attrs)-1]]
	for _, v := range vs {
		if v == nil {
			return nil
		}
	}
	return vs
}

// RunsTool: registry[key].invoke(...) with a non-literal key, where the
// registry is a dict of tools the tree builds ({t.name: t for t in tools}
// or a literal), here or imported (see builder.registryDispatch, which
// gives the agent the registry's tools in that node).
func (r resolver) RunsTool(c *extract.Call) bool {
	reg := r.ix.registryOf(c)
	if reg == nil {
		return false
	}
	t, ok := r.ix.lookup(reg.Scope, reg.Name, 0)
	if !ok || t.bind == nil || t.bind.Kind != extract.BindAssign || t.bind.Value == nil {
		return false
	}
	v := extract.Deref(t.bind.Value)
	return v != nil && (v.Kind == extract.ExprComp || v.Kind == extract.ExprDict)
}
