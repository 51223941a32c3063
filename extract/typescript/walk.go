package typescript

import (
	"strconv"
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// walker holds the state of one function body walk.
type walker struct {
	b     *builder
	fn    *extract.Func
	class *extract.Class
	env   map[string]extract.Flow // local variables: where their values come from
	types map[string]string       // locals built by a known call: its qualified callee + "()"
	dom   int                     // nearest dominating call
	depth int                     // conditional nesting depth
	// owner names a function written as a value: the variable or object
	// key it is assigned to (weatherTool.execute), "" for none.
	owner   string
	pending *[]func()
}

// walkBody walks a function body (or the program) into fn's facts.
// outer are the enclosing walk's object types, which a nested function
// sees.
func (b *builder) walkBody(fn *extract.Func, body *syntax.Node, outer *walker) {
	w := &walker{b: b, fn: fn, env: map[string]extract.Flow{}, types: map[string]string{}, dom: -1}
	if outer != nil {
		for k, v := range outer.types {
			w.types[k] = v
		}
		w.class = outer.class
	}
	if fn.ClassDef != nil {
		w.class = fn.ClassDef
	}
	for i, p := range fn.Params {
		fl := extract.Flow{{Param: i, Call: -1, Step: &extract.Step{Loc: p.Loc, Msg: "parameter " + p.Name}}}
		if !strings.HasPrefix(p.Name, "{") && !strings.HasPrefix(p.Name, "[") {
			w.env[p.Name] = fl
			fn.Scope.Add(&extract.Binding{Name: p.Name, Kind: extract.BindParam, Loc: p.Loc})
		}
	}
	for _, d := range b.destructured[fn] {
		w.bindPattern(d.pat, d.flow, nil, extract.BindParam)
	}
	w.typeParams(fn)
	var pending []func()
	w.pending = &pending
	if body == nil {
		return
	}
	if body.Type() == "statement_block" || body.Type() == "program" || body.Type() == "class_body" {
		w.hoist(body)
		w.block(body)
	} else {
		// An arrow function's expression body is its returned value.
		fl, ex := w.expr(body)
		w.ret(body, fl, ex)
	}
	for i := 0; i < len(pending); i++ {
		pending[i]()
	}
}

// hoist binds the function declarations of a block before its statements
// run: JavaScript hoists them, so a call above the declaration is local.
func (w *walker) hoist(n *syntax.Node) {
	for _, st := range n.NamedChildren() {
		d := st
		if d.Type() == "export_statement" {
			if x := d.ChildByFieldName("declaration"); x != nil {
				d = x
			}
		}
		switch d.Type() {
		case "function_declaration", "generator_function_declaration":
			if nm := d.ChildByFieldName("name"); nm != nil {
				w.fn.Scope.Add(&extract.Binding{Name: w.b.text(nm), Kind: extract.BindDef, Loc: w.b.loc(d)})
			}
		}
	}
}

func (w *walker) block(n *syntax.Node) {
	if n == nil {
		return
	}
	if n.Type() != "statement_block" && n.Type() != "program" && n.Type() != "class_body" {
		w.stmt(n)
		return
	}
	for _, st := range n.NamedChildren() {
		w.stmt(st)
	}
}

// cond walks code that may not run: its calls dominate nothing after it.
func (w *walker) cond(f func()) {
	dom := w.dom
	w.depth++
	f()
	w.depth--
	w.dom = dom
}

func copyEnv(e map[string]extract.Flow) map[string]extract.Flow {
	out := make(map[string]extract.Flow, len(e))
	for k, v := range e {
		out[k] = v
	}
	return out
}

// branches walks alternatives from one state and joins what they assign.
func (w *walker) branches(blocks ...*syntax.Node) {
	start := copyEnv(w.env)
	joined := copyEnv(w.env)
	for _, bl := range blocks {
		if bl == nil {
			continue
		}
		w.env = copyEnv(start)
		w.cond(func() { w.block(bl) })
		for k, v := range w.env {
			joined[k] = extract.Union(joined[k], v)
		}
	}
	w.env = joined
}

func (w *walker) stmt(st *syntax.Node) {
	b := w.b
	switch st.Type() {
	case "comment", "empty_statement", "debugger_statement", "type_alias_declaration", "interface_declaration", "enum_declaration", "ambient_declaration":
	case "import_statement":
		w.importStmt(st)
	case "export_statement":
		w.exportStmt(st)
	case "expression_statement":
		for _, e := range st.NamedChildren() {
			w.expr(e)
		}
	case "lexical_declaration", "variable_declaration":
		for _, d := range st.NamedChildren() {
			if d.Type() == "variable_declarator" {
				w.declarator(d)
			}
		}
	case "function_declaration", "generator_function_declaration":
		name := b.text(st.ChildByFieldName("name"))
		fn := w.function(st, name)
		w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindDef, Func: fn, Loc: b.loc(st)})
	case "class_declaration", "abstract_class_declaration":
		w.classDecl(st)
	case "return_statement":
		var fl extract.Flow
		var ex *extract.Expr
		if kids := st.NamedChildren(); len(kids) > 0 {
			fl, ex = w.expr(kids[0])
		}
		w.ret(st, fl, ex)
	case "throw_statement":
		for _, e := range st.NamedChildren() {
			w.expr(e)
		}
	case "if_statement":
		if c := st.ChildByFieldName("condition"); c != nil {
			w.expr(c)
		}
		var alt *syntax.Node
		if e := st.ChildByFieldName("alternative"); e != nil {
			for _, k := range e.NamedChildren() {
				alt = k
			}
		}
		w.branches(st.ChildByFieldName("consequence"), alt)
	case "for_statement":
		for _, f := range []string{"initializer", "condition", "increment"} {
			if n := st.ChildByFieldName(f); n != nil {
				if n.Type() == "lexical_declaration" || n.Type() == "variable_declaration" {
					w.stmt(n)
				} else {
					w.expr(n)
				}
			}
		}
		w.loop(st.ChildByFieldName("body"))
	case "for_in_statement":
		fl, ex := w.expr(st.ChildByFieldName("right"))
		if l := st.ChildByFieldName("left"); l != nil {
			w.bindPattern(l, extend(fl, b.loc(l), b.text(l)), ex, extract.BindLoop)
		}
		w.loop(st.ChildByFieldName("body"))
	case "while_statement", "do_statement":
		if c := st.ChildByFieldName("condition"); c != nil {
			w.expr(c)
		}
		w.loop(st.ChildByFieldName("body"))
	case "try_statement":
		w.block(st.ChildByFieldName("body"))
		if h := st.ChildByFieldName("handler"); h != nil {
			w.cond(func() { w.block(h.ChildByFieldName("body")) })
		}
		if f := st.ChildByFieldName("finalizer"); f != nil {
			w.block(f.ChildByFieldName("body"))
		}
	case "switch_statement":
		if v := st.ChildByFieldName("value"); v != nil {
			w.expr(v)
		}
		var cases []*syntax.Node
		if body := st.ChildByFieldName("body"); body != nil {
			for _, c := range body.NamedChildren() {
				cases = append(cases, c)
			}
		}
		start := copyEnv(w.env)
		joined := copyEnv(w.env)
		for _, c := range cases {
			w.env = copyEnv(start)
			w.cond(func() {
				for _, s := range c.NamedChildren() {
					if c.Type() == "switch_case" && s == c.ChildByFieldName("value") {
						continue
					}
					w.stmt(s)
				}
			})
			for k, v := range w.env {
				joined[k] = extract.Union(joined[k], v)
			}
		}
		w.env = joined
	case "statement_block":
		w.block(st)
	case "labeled_statement":
		if body := st.ChildByFieldName("body"); body != nil {
			w.stmt(body)
		}
	default:
		// Anything else: its expressions still run.
		for _, e := range st.NamedChildren() {
			w.expr(e)
		}
	}
}

// loop walks a loop body twice, so flows around the loop reach its start.
func (w *walker) loop(body *syntax.Node) {
	if body == nil {
		return
	}
	w.cond(func() {
		w.block(body)
		w.block(body)
	})
}

func (w *walker) ret(n *syntax.Node, fl extract.Flow, ex *extract.Expr) {
	w.fn.Returns = extract.Union(w.fn.Returns, extend(fl, w.b.loc(n), "returned"))
	if ex != nil {
		w.fn.ReturnExprs = append(w.fn.ReturnExprs, ex)
		w.fn.ReturnGuards = append(w.fn.ReturnGuards, nil)
	}
}

func extend(fl extract.Flow, l extract.Loc, msg string) extract.Flow {
	if len(fl) == 0 {
		return nil
	}
	out := make(extract.Flow, len(fl))
	for i, o := range fl {
		o.Step = &extract.Step{Loc: l, Msg: msg, Prev: o.Step}
		out[i] = o
	}
	return out
}

// declarator walks `name = value` of a const/let/var.
func (w *walker) declarator(d *syntax.Node) {
	name := d.ChildByFieldName("name")
	val := d.ChildByFieldName("value")
	if name == nil {
		return
	}
	if val == nil {
		w.bindPattern(name, nil, nil, extract.BindAssign)
		return
	}
	w.assign(name, val)
}

// assign walks value and binds it to the target pattern.
func (w *walker) assign(target, val *syntax.Node) {
	b := w.b
	owner := w.owner
	if target.Type() == "identifier" {
		w.owner = b.text(target)
	} else if target.Type() == "member_expression" {
		w.owner = b.text(target)
	}
	v := unwrap(val)
	if target.Type() == "identifier" && isFuncNode(v) {
		// const f = () => ...: a function of its own, bound as a def.
		fn := w.function(v, b.text(target))
		w.owner = owner
		w.fn.Scope.Add(&extract.Binding{Name: fn.Name, Kind: extract.BindDef, Func: fn, Loc: b.loc(target)})
		delete(w.env, fn.Name)
		return
	}
	fl, ex := w.expr(val)
	w.owner = owner
	if ex != nil && ex.Kind == extract.ExprName && strings.HasPrefix(ex.Name, "require:") {
		w.bindRequire(target, strings.TrimPrefix(ex.Name, "require:"))
		return
	}
	w.bindPattern(target, extend(fl, b.loc(target), b.text(target)), ex, extract.BindAssign)
}

// bindRequire binds `const x = require("m")` and `const { a, b: c } =
// require("m")` as imports of m, as the ES forms are.
func (w *walker) bindRequire(t *syntax.Node, mod string) {
	b := w.b
	add := func(local, symbol string, n *syntax.Node) {
		im := extract.Import{Local: local, Module: mod, Symbol: symbol, Loc: b.loc(n)}
		b.f.Imports = append(b.f.Imports, im)
		w.fn.Scope.Add(&extract.Binding{Name: local, Kind: extract.BindImport, Imp: &im, Loc: im.Loc})
		delete(w.env, local)
	}
	switch t.Type() {
	case "identifier":
		add(b.text(t), "", t)
	case "object_pattern":
		for _, p := range t.NamedChildren() {
			switch p.Type() {
			case "shorthand_property_identifier_pattern":
				add(b.text(p), b.text(p), p)
			case "pair_pattern":
				if v := p.ChildByFieldName("value"); v != nil && v.Type() == "identifier" {
					add(b.text(v), propKey(b, p.ChildByFieldName("key")), p)
				}
			}
		}
	}
}

// bindPattern binds a target (a name, an object or array pattern) to a
// value's flow. A destructured field narrows a parameter's flow to that
// field ({ to } = args reads args.to).
func (w *walker) bindPattern(t *syntax.Node, fl extract.Flow, ex *extract.Expr, kind extract.BindKind) {
	b := w.b
	if t == nil {
		return
	}
	switch t.Type() {
	case "identifier", "shorthand_property_identifier_pattern":
		name := b.text(t)
		w.env[name] = fl
		if ex != nil && ex.Kind == extract.ExprCall && ex.Call != nil && ex.Type != "" {
			w.types[name] = ex.Type
		} else {
			delete(w.types, name)
		}
		if ex != nil && ex.Kind == extract.ExprCall && ex.Call != nil && ex.Call.AssignedTo == "" {
			ex.Call.AssignedTo = name
		}
		w.fn.Scope.Add(&extract.Binding{Name: name, Kind: kind, Value: ex, Loc: b.loc(t)})
	case "object_pattern":
		for _, p := range t.NamedChildren() {
			switch p.Type() {
			case "shorthand_property_identifier_pattern":
				key := b.text(p)
				w.bindPattern(p, fl.Field(key), field(ex, key), kind)
			case "pair_pattern":
				key := propKey(b, p.ChildByFieldName("key"))
				w.bindPattern(p.ChildByFieldName("value"), fl.Field(key), field(ex, key), kind)
			case "object_assignment_pattern":
				l := p.ChildByFieldName("left")
				key := b.text(l)
				if r := p.ChildByFieldName("right"); r != nil {
					w.expr(r)
				}
				w.bindPattern(l, fl.Field(key), field(ex, key), kind)
			case "rest_pattern":
				for _, k := range p.NamedChildren() {
					w.bindPattern(k, fl, nil, kind)
				}
			}
		}
	case "array_pattern":
		for i, p := range t.NamedChildren() {
			var el *extract.Expr
			if ex != nil && ex.Kind == extract.ExprList && i < len(ex.Elems) {
				el = ex.Elems[i]
			}
			w.bindPattern(p, fl, el, kind)
		}
	case "assignment_pattern":
		if r := t.ChildByFieldName("right"); r != nil {
			rf, _ := w.expr(r)
			fl = extract.Union(fl, rf)
		}
		w.bindPattern(t.ChildByFieldName("left"), fl, ex, kind)
	case "rest_pattern":
		for _, k := range t.NamedChildren() {
			w.bindPattern(k, fl, ex, kind)
		}
	case "member_expression":
		obj := t.ChildByFieldName("object")
		w.expr(obj)
		if obj != nil && obj.Type() == "this" && w.class != nil && ex != nil && ex.Kind == extract.ExprCall && ex.Type != "" {
			// this.client = new WebClient(token): a method called on
			// this.client is the type's.
			if prop := propKey(b, t.ChildByFieldName("property")); prop != "" {
				w.class.SelfTypes[prop] = ex.Type
			}
		}
	}
}

// field is the value of key in an object literal expression, or nil.
func field(ex *extract.Expr, key string) *extract.Expr {
	if ex == nil || ex.Kind != extract.ExprDict {
		return nil
	}
	for i, k := range ex.Keys {
		if k != nil && k.Kind == extract.ExprStr && k.Str == key && i < len(ex.Elems) {
			return ex.Elems[i]
		}
	}
	return nil
}

func unwrap(n *syntax.Node) *syntax.Node {
	for n != nil {
		switch n.Type() {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "type_assertion":
			kids := n.NamedChildren()
			if len(kids) == 0 {
				return n
			}
			if n.Type() == "type_assertion" {
				n = kids[len(kids)-1]
			} else {
				n = kids[0]
			}
		default:
			return n
		}
	}
	return n
}

func isFuncNode(n *syntax.Node) bool {
	if n == nil {
		return false
	}
	switch n.Type() {
	case "arrow_function", "function_expression", "function", "generator_function":
		return true
	}
	return false
}

// destructuredParam is a parameter written as a pattern ({ to, body }):
// its names are bound to the parameter's fields when the body is walked.
type destructuredParam struct {
	pat  *syntax.Node
	typ  string // its annotation, as written
	flow extract.Flow
}

// function makes a Func of a function node (declaration, arrow, function
// expression, method) and schedules its body's walk after the current
// body, so it sees every module-level binding (JavaScript runs a
// function body when it is called, not where it is written).
func (w *walker) function(n *syntax.Node, name string) *extract.Func {
	b := w.b
	if name == "" {
		name = "<lambda@" + strconv.Itoa(int(b.loc(n).Start.Line)) + ">"
	}
	qual := name
	if w.class != nil && !strings.HasPrefix(name, w.class.Name+".") {
		qual = w.class.Name + "." + name
	}
	fn := &extract.Func{Name: name, Qual: qual, Loc: b.loc(n), Parent: w.fn}
	if w.fn.Name == "<module>" {
		fn.Parent = nil
	}
	if nm := n.ChildByFieldName("name"); nm != nil {
		fn.NameLoc = b.loc(nm)
	} else {
		fn.NameLoc = extract.Loc{File: b.f.Path, Start: fn.Loc.Start, End: fn.Loc.Start}
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.Child(i).Type() == "async" {
			fn.Async = true
		}
	}
	fn.Scope = extract.NewScope(w.fn.Scope, fn)
	body := n.ChildByFieldName("body")
	if body != nil {
		fn.Body = b.loc(body)
		if body.Type() == "statement_block" {
			// A statement can go first right after the opening brace.
			fn.BodyInsert = extract.PointAt(b.src, b.f.Lines, int(body.StartByte())+1)
		}
	}
	b.params(fn, n)
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		// The annotation types the call's result for the calls made on
		// it (chat().thread(id).post(...) with chat(): Chat).
		fn.ReturnType = strings.TrimSpace(strings.TrimPrefix(b.text(rt), ":"))
	}
	b.f.Funcs = append(b.f.Funcs, fn)
	outer := w
	*w.pending = append(*w.pending, func() { b.walkBody(fn, body, outer) })
	return fn
}

// params reads a function's parameters. A parameter written as a pattern
// is one parameter (the caller passes one value) whose names are its
// fields.
func (b *builder) params(fn *extract.Func, n *syntax.Node) {
	var ps []*syntax.Node
	if p := n.ChildByFieldName("parameters"); p != nil {
		ps = p.NamedChildren()
	} else if p := n.ChildByFieldName("parameter"); p != nil {
		ps = []*syntax.Node{p}
	}
	for _, p := range ps {
		if p.Type() == "comment" {
			continue
		}
		pat, typ := p, ""
		var def *syntax.Node
		if p.Type() == "required_parameter" || p.Type() == "optional_parameter" {
			pat = p.ChildByFieldName("pattern")
			if t := p.ChildByFieldName("type"); t != nil {
				typ = strings.TrimSpace(strings.TrimPrefix(b.text(t), ":"))
			}
			def = p.ChildByFieldName("value")
		}
		if pat != nil && pat.Type() == "assignment_pattern" {
			def = pat.ChildByFieldName("right")
			pat = pat.ChildByFieldName("left")
		}
		if pat == nil {
			continue
		}
		if pat.Type() == "this" {
			continue // a `this` type annotation, no argument
		}
		name := b.text(pat)
		if pat.Type() == "rest_pattern" {
			if k := pat.NamedChildren(); len(k) > 0 {
				name = b.text(k[0])
			}
		}
		prm := extract.Param{Name: name, Annotation: typ, Loc: b.loc(p)}
		if def != nil {
			prm.Default = b.constExpr(def)
		}
		fn.Params = append(fn.Params, prm)
		if pat.Type() == "object_pattern" || pat.Type() == "array_pattern" {
			i := len(fn.Params) - 1
			if b.destructured == nil {
				b.destructured = map[*extract.Func][]destructuredParam{}
			}
			b.destructured[fn] = append(b.destructured[fn], destructuredParam{pat: pat, typ: typ,
				flow: extract.Flow{{Param: i, Call: -1, Step: &extract.Step{Loc: prm.Loc, Msg: "parameter " + name}}}})
		}
	}
}

// classDecl records a class and its methods (Class.method).
func (w *walker) classDecl(n *syntax.Node) *extract.Class {
	b := w.b
	nameNode := n.ChildByFieldName("name")
	name := b.text(nameNode)
	if name == "" {
		name = "<class@" + strconv.Itoa(int(b.loc(n).Start.Line)) + ">"
	}
	cl := &extract.Class{Name: name, Attrs: map[string]*extract.Expr{}, Methods: map[string]*extract.Func{}, Loc: b.loc(n), NameLoc: b.loc(nameNode),
		AttrTypes: map[string]string{}, SelfTypes: map[string]string{}}
	for _, k := range n.NamedChildren() {
		if k.Type() == "class_heritage" {
			for _, h := range k.NamedChildren() {
				for _, e := range h.NamedChildren() {
					_, ex := w.expr(e)
					if ex != nil {
						cl.Bases = append(cl.Bases, ex)
					}
				}
			}
		}
	}
	cl.Scope = extract.NewScope(w.fn.Scope, nil)
	b.f.Classes[name] = cl
	w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindClass, Class: cl, Loc: b.loc(n)})
	outerClass := w.class
	w.class = cl
	if body := n.ChildByFieldName("body"); body != nil {
		for _, m := range body.NamedChildren() {
			switch m.Type() {
			case "method_definition":
				mn := propKey(b, m.ChildByFieldName("name"))
				fn := w.function(m, mn)
				fn.Class, fn.ClassDef = name, cl
				cl.Methods[mn] = fn
			case "public_field_definition", "field_definition":
				key := propKey(b, m.ChildByFieldName("name"))
				if key == "" {
					key = propKey(b, m.ChildByFieldName("property"))
				}
				if t := m.ChildByFieldName("type"); t != nil && m.ChildByFieldName("value") == nil {
					// private client: WebClient; (assigned in the constructor)
					if ty := w.importedType(strings.TrimPrefix(strings.TrimSpace(b.text(t)), ":")); ty != "" {
						cl.SelfTypes[key] = ty
					}
				}
				if v := m.ChildByFieldName("value"); v != nil {
					if isFuncNode(unwrap(v)) {
						fn := w.function(unwrap(v), key)
						fn.Class, fn.ClassDef = name, cl
						cl.Methods[key] = fn
						continue
					}
					_, ex := w.expr(v)
					cl.Attrs[key] = ex
					if ex != nil && ex.Type != "" {
						cl.SelfTypes[key] = ex.Type
					}
				}
			}
		}
	}
	w.class = outerClass
	return cl
}

// importStmt binds the names an import statement introduces.
func (w *walker) importStmt(st *syntax.Node) {
	b := w.b
	spec, ok := stringValue(b, st.ChildByFieldName("source"))
	if !ok {
		return
	}
	mod := Specifier(b.f.Path, spec)
	add := func(local, symbol string, n *syntax.Node) {
		im := extract.Import{Local: local, Module: mod, Symbol: symbol, Loc: b.loc(n)}
		b.f.Imports = append(b.f.Imports, im)
		imp := im
		w.fn.Scope.Add(&extract.Binding{Name: local, Kind: extract.BindImport, Imp: &imp, Loc: im.Loc})
	}
	for _, k := range st.NamedChildren() {
		if k.Type() != "import_clause" {
			continue
		}
		for _, c := range k.NamedChildren() {
			switch c.Type() {
			case "identifier":
				// A default import is the module's default export; for a
				// package it is the module itself (axios.get), which is
				// how CommonJS packages are used.
				if isInTree(mod, spec) {
					add(b.text(c), "default", c)
				} else {
					add(b.text(c), "", c)
				}
			case "namespace_import":
				for _, id := range c.NamedChildren() {
					add(b.text(id), "", id)
				}
			case "named_imports":
				for _, s := range c.NamedChildren() {
					if s.Type() != "import_specifier" {
						continue
					}
					name := propKey(b, s.ChildByFieldName("name"))
					local := name
					if a := s.ChildByFieldName("alias"); a != nil {
						local = b.text(a)
					}
					if name == "default" && !isInTree(mod, spec) {
						add(local, "", s)
					} else {
						add(local, name, s)
					}
				}
			}
		}
	}
}

// isInTree: a relative specifier names a file of the tree; a package or a
// Node builtin (node:path is path) does not.
func isInTree(mod, spec string) bool {
	return mod != strings.TrimPrefix(spec, "node:") || strings.HasPrefix(spec, ".")
}

// exportStmt walks what an export declares and binds re-exports
// (export { a as b } from "./x") as imports, so a name imported from
// this file resolves to where it is defined.
func (w *walker) exportStmt(st *syntax.Node) {
	b := w.b
	if d := st.ChildByFieldName("declaration"); d != nil {
		w.stmt(d)
		return
	}
	src := st.ChildByFieldName("source")
	if src != nil {
		spec, ok := stringValue(b, src)
		if !ok {
			return
		}
		mod := Specifier(b.f.Path, spec)
		star := true
		for _, k := range st.NamedChildren() {
			if k.Type() == "namespace_export" {
				// export * as ns from "./x": ns is the module, as a
				// namespace import binds it.
				star = false
				for _, id := range k.NamedChildren() {
					im := extract.Import{Local: propKey(b, id), Module: mod, Loc: b.loc(id)}
					b.f.Imports = append(b.f.Imports, im)
					w.fn.Scope.Add(&extract.Binding{Name: im.Local, Kind: extract.BindImport, Imp: &im, Loc: im.Loc})
				}
				continue
			}
			if k.Type() != "export_clause" {
				continue
			}
			star = false
			for _, s := range k.NamedChildren() {
				if s.Type() != "export_specifier" {
					continue
				}
				name := propKey(b, s.ChildByFieldName("name"))
				local := name
				if a := s.ChildByFieldName("alias"); a != nil {
					local = propKey(b, a)
				}
				im := extract.Import{Local: local, Module: mod, Symbol: name, Loc: b.loc(s)}
				b.f.Imports = append(b.f.Imports, im)
				w.fn.Scope.Add(&extract.Binding{Name: local, Kind: extract.BindImport, Imp: &im, Loc: im.Loc})
			}
		}
		if star {
			// export * from "./x": every export of x but its default is
			// one of this file's; resolve looks a name the file does not
			// bind up in these (Index.lookup).
			b.f.ReExports = append(b.f.ReExports, mod)
		}
		return
	}
	if v := st.ChildByFieldName("value"); v != nil {
		// export default <expr>: the file's "default".
		w.assignName("default", v)
		return
	}
	for _, k := range st.NamedChildren() {
		if k.Type() == "export_clause" {
			// export { a as b }: b names a.
			for _, s := range k.NamedChildren() {
				if s.Type() != "export_specifier" {
					continue
				}
				name := propKey(b, s.ChildByFieldName("name"))
				if a := s.ChildByFieldName("alias"); a != nil && propKey(b, a) != name {
					w.fn.Scope.Add(&extract.Binding{Name: propKey(b, a), Kind: extract.BindAssign,
						Value: &extract.Expr{Kind: extract.ExprName, Name: name, Scope: w.fn.Scope, Loc: b.loc(s)}, Loc: b.loc(s)})
				}
			}
		}
	}
}

// assignName binds a name (not written in the source: "default") to a
// value node.
func (w *walker) assignName(name string, v *syntax.Node) {
	u := unwrap(v)
	if isFuncNode(u) {
		fn := w.function(u, name)
		w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindDef, Func: fn, Loc: w.b.loc(v)})
		return
	}
	if u.Type() == "class" {
		cl := w.classDecl(u)
		w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindClass, Class: cl, Loc: w.b.loc(v)})
		return
	}
	owner := w.owner
	w.owner = name
	fl, ex := w.expr(v)
	w.owner = owner
	w.env[name] = fl
	if ex != nil && ex.Kind == extract.ExprCall && ex.Call != nil && ex.Call.AssignedTo == "" {
		ex.Call.AssignedTo = name
	}
	w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindAssign, Value: ex, Loc: w.b.loc(v)})
}

// stringValue is the value of a string literal node.
func stringValue(b *builder, n *syntax.Node) (string, bool) {
	if n == nil || n.Type() != "string" {
		return "", false
	}
	var sb strings.Builder
	for _, k := range n.NamedChildren() {
		switch k.Type() {
		case "string_fragment":
			sb.WriteString(b.text(k))
		case "escape_sequence":
			sb.WriteString(unescape(b.text(k)))
		}
	}
	return sb.String(), true
}

func unescape(s string) string {
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return strings.TrimPrefix(s, `\`)
}

// propKey is the name of an object key or member: an identifier, a string
// literal or a number.
func propKey(b *builder, n *syntax.Node) string {
	if n == nil {
		return ""
	}
	if s, ok := stringValue(b, n); ok {
		return s
	}
	if n.Type() == "computed_property_name" {
		if k := n.NamedChildren(); len(k) == 1 {
			if s, ok := stringValue(b, k[0]); ok {
				return s
			}
		}
		return ""
	}
	return b.text(n)
}
