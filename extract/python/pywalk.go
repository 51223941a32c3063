package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// walkFunc walks a function body (or the module) and fills fn's flow facts.
// def is the function_definition node, or the module root for "<module>".
func (b *builder) walkFunc(fn *extract.Func, body *syntax.Node, class *extract.Class, outer map[string]string) {
	w := &walker{b: b, fn: fn, class: class, env: map[string]extract.Flow{}, types: map[string]string{}, dom: -1, seen: map[[2]uint32]*extract.Call{}}
	// A function reads its enclosing scope's variables; their flows are not
	// tracked across the boundary, but the types of the objects are.
	for k, v := range outer {
		w.types[k] = v
	}
	for i, p := range fn.Params {
		if p.Injected && (p.Name == "self" || p.Name == "cls") {
			continue
		}
		w.env[p.Name] = extract.Flow{{Param: i, Call: -1, Step: &extract.Step{Loc: p.Loc, Msg: "parameter " + p.Name}}}
		fn.Scope.Add(&extract.Binding{Name: p.Name, Kind: extract.BindParam, Loc: p.Loc})
	}
	// Nested function bodies run later than the code around them: walk them
	// after it, so they see every module-level object built further down
	// (a session created below the function that uses it).
	var pending []func()
	w.pending = &pending
	w.block(body)
	for i := 0; i < len(pending); i++ {
		pending[i]()
	}
}

func (w *walker) block(n *syntax.Node) {
	if n == nil {
		return
	}
	n0 := len(w.guards)
	for _, st := range named(n) {
		w.stmt(st)
	}
	w.guards = w.guards[:n0]
}

// cond walks something that may not run (a branch, a loop body): calls in it
// do not dominate what follows.
func (w *walker) cond(f func()) {
	dom := w.dom
	w.depth++
	f()
	w.depth--
	w.dom = dom
}

// branches walks alternative blocks from the same starting state and joins
// the variable flows, so a value assigned on either path is kept.
func (w *walker) branches(blocks []*syntax.Node, guards [][]extract.Guard) {
	start := copyEnv(w.env)
	joined := copyEnv(w.env)
	for i, bl := range blocks {
		w.env = copyEnv(start)
		n0 := len(w.guards)
		if i < len(guards) {
			w.guards = append(w.guards[:n0:n0], guards[i]...)
		}
		w.cond(func() { w.block(bl) })
		w.guards = w.guards[:n0]
		for k, v := range w.env {
			joined[k] = extract.Union(joined[k], v)
		}
	}
	w.env = joined
}

// endsFlow reports whether a block always leaves its function or loop by
// its last statement (return, raise, continue, break).
func endsFlow(bl *syntax.Node) bool {
	st := exprKids(bl)
	if len(st) == 0 {
		return false
	}
	switch st[len(st)-1].Type() {
	case "return_statement", "raise_statement", "continue_statement", "break_statement":
		return true
	}
	return false
}

func copyEnv(e map[string]extract.Flow) map[string]extract.Flow {
	out := make(map[string]extract.Flow, len(e))
	for k, v := range e {
		out[k] = v
	}
	return out
}

func (w *walker) stmt(st *syntax.Node) {
	b := w.b
	switch st.Type() {
	case "expression_statement":
		for _, e := range named(st) {
			w.exprStmt(e)
		}
	case "return_statement":
		for _, e := range exprKids(st) {
			fl, ex := w.expr(e)
			w.fn.Returns = extract.Union(w.fn.Returns, extend(fl, b.loc(st), "returned"))
			w.fn.ReturnExprs = append(w.fn.ReturnExprs, ex)
			if w.class != nil {
				if b.selfReturned == nil {
					b.selfReturned = map[*extract.Class]map[string]bool{}
				}
				if b.selfReturned[w.class] == nil {
					b.selfReturned[w.class] = map[string]bool{}
				}
				selfAttrsIn(ex, b.selfReturned[w.class])
			}
			w.fn.ReturnGuards = append(w.fn.ReturnGuards, w.guardsNow())
		}
	case "if_statement":
		_, ce := w.expr(st.ChildByFieldName("condition"))
		cons := st.ChildByFieldName("consequence")
		blocks := []*syntax.Node{cons}
		// Each branch runs when every earlier condition failed and its own
		// holds.
		var negs []extract.Guard
		guards := [][]extract.Guard{{{Cond: ce}}}
		negs = append(negs, extract.Guard{Cond: ce, Neg: true})
		hasElse := false
		for _, alt := range named(st) {
			switch alt.Type() {
			case "elif_clause":
				var ee *extract.Expr
				w.cond(func() { _, ee = w.expr(alt.ChildByFieldName("condition")) })
				blocks = append(blocks, alt.ChildByFieldName("consequence"))
				guards = append(guards, append(append([]extract.Guard(nil), negs...), extract.Guard{Cond: ee}))
				negs = append(negs, extract.Guard{Cond: ee, Neg: true})
			case "else_clause":
				hasElse = true
				blocks = append(blocks, alt.ChildByFieldName("body"))
				guards = append(guards, append([]extract.Guard(nil), negs...))
			}
		}
		if !hasElse {
			blocks = append(blocks, nil)
		}
		w.branches(blocks, guards)
		if !hasElse && len(blocks) == 2 && endsFlow(cons) {
			// `if cond: return x` — what follows runs only when cond fails.
			w.guards = append(w.guards[:len(w.guards):len(w.guards)], extract.Guard{Cond: ce, Neg: true})
		}
	case "for_statement":
		fl, ie := w.expr(st.ChildByFieldName("right"))
		var el *extract.Expr
		if ty := w.iterElementType(ie); ty != "" {
			// for c in self.converters (list[Converter]): c is an element,
			// of the declared class (or a subclass of it).
			el = &extract.Expr{Kind: extract.ExprSubscript, Elems: []*extract.Expr{ie, nil}, Type: ty, Loc: ie.Loc, Scope: ie.Scope}
		}
		w.cond(func() {
			w.bindTarget(st.ChildByFieldName("left"), fl, el, extract.BindLoop)
			w.loopBody(st.ChildByFieldName("body"))
			w.elseClause(st)
		})
	case "while_statement":
		w.expr(st.ChildByFieldName("condition"))
		w.cond(func() {
			w.loopBody(st.ChildByFieldName("body"))
			w.elseClause(st)
		})
	case "with_statement":
		for _, c := range named(st) {
			if c.Type() != "with_clause" {
				continue
			}
			for _, item := range named(c) {
				v := item.ChildByFieldName("value")
				if v != nil && v.Type() == "as_pattern" {
					val := named(v)
					if len(val) > 0 {
						fl, ex := w.expr(val[0])
						w.bindTarget(v.ChildByFieldName("alias"), fl, ex, extract.BindLoop)
					}
					continue
				}
				w.expr(v)
			}
		}
		w.block(st.ChildByFieldName("body"))
	case "try_statement":
		var handlers []*syntax.Node
		w.cond(func() { w.block(st.ChildByFieldName("body")) })
		for _, c := range named(st) {
			switch c.Type() {
			case "except_clause", "except_group_clause":
				for _, cc := range named(c) {
					if cc.Type() == "block" {
						handlers = append(handlers, cc)
					}
				}
			case "else_clause":
				handlers = append(handlers, c.ChildByFieldName("body"))
			case "finally_clause":
				for _, cc := range named(c) {
					if cc.Type() == "block" {
						w.block(cc)
					}
				}
			}
		}
		for _, h := range handlers {
			w.cond(func() { w.block(h) })
		}
	case "match_statement":
		w.expr(st.ChildByFieldName("subject"))
		for _, c := range named(st.ChildByFieldName("body")) {
			bl := c.ChildByFieldName("consequence")
			w.cond(func() { w.block(bl) })
		}
	case "function_definition", "decorated_definition", "class_definition":
		if w.replay {
			return
		}
		w.definition(st)
	case "import_statement", "import_from_statement", "future_import_statement":
		if w.fn.Scope.Parent != nil && !w.replay {
			b.imports(st, w.fn.Scope) // function-local import
		}
	case "raise_statement", "assert_statement", "delete_statement", "print_statement", "exec_statement":
		for _, e := range named(st) {
			w.expr(e)
		}
	}
}

func (w *walker) definition(st *syntax.Node) {
	switch st.Type() {
	case "function_definition":
		w.def(st, nil)
	case "decorated_definition":
		var decos []*extract.Expr
		for _, c := range named(st) {
			if c.Type() == "decorator" {
				for _, e := range named(c) {
					_, ex := w.expr(e)
					decos = append(decos, ex)
				}
			}
		}
		def := st.ChildByFieldName("definition")
		switch def.Type() {
		case "function_definition":
			w.def(def, decos)
		case "class_definition":
			w.classDef(def, decos)
		}
	case "class_definition":
		w.classDef(st, nil)
	}
}

// loopBody walks a loop body twice so that values from the end of one
// iteration reach the next. The second pass only adds flows: its call sites
// are the first pass's, and it defines nothing new.
func (w *walker) loopBody(body *syntax.Node) {
	w.block(body)
	replay := w.replay
	w.replay = true
	w.block(body)
	w.replay = replay
}

func (w *walker) elseClause(st *syntax.Node) {
	for _, c := range named(st) {
		if c.Type() == "else_clause" {
			w.block(c.ChildByFieldName("body"))
		}
	}
}

// exprStmt handles assignments and bare expressions at statement level.
func (w *walker) exprStmt(e *syntax.Node) {
	b := w.b
	switch e.Type() {
	case "assignment":
		right := e.ChildByFieldName("right")
		w.selfAttrType(e, right)
		if right == nil {
			return // annotation only: `x: int`
		}
		fl, ex := w.expr(right)
		// a = b = call(): tree-sitter nests the chain in right.
		w.bindTarget(e.ChildByFieldName("left"), fl, ex, extract.BindAssign)
	case "augmented_assignment":
		left := e.ChildByFieldName("left")
		fl, ex := w.expr(e.ChildByFieldName("right"))
		if left.Type() == "identifier" {
			name := b.text(left)
			w.env[name] = extract.Union(w.env[name], extend(fl, b.loc(left), name))
			if strings.TrimSpace(b.text(e.ChildByFieldName("operator"))) == "+=" || strings.Contains(b.text(e), "+=") {
				w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindAppend, Value: ex, Loc: b.loc(e), Guards: w.guardsNow()})
			}
		} else {
			if o := left.ChildByFieldName("object"); left.Type() == "attribute" && o != nil && o.Type() == "identifier" &&
				b.text(o) == "self" && w.class != nil && !w.replay {
				// self.tools += [...]: more values of the attribute (nil: unreadable).
				addSelfValue(w.class, b.text(left.ChildByFieldName("attribute")), ex)
			}
			w.expr(left)
		}
	default:
		w.expr(e)
	}
}

// selfAttrType records the type of an attribute a method gives self
// (`self.items: list[Draft] = []`, `self.items = []`) for the effects of
// calls on it: its annotation, else the builtin type of a literal.
func (w *walker) selfAttrType(e, right *syntax.Node) {
	left := e.ChildByFieldName("left")
	if w.class == nil || left == nil || left.Type() != "attribute" {
		return
	}
	obj := left.ChildByFieldName("object")
	if obj == nil || obj.Type() != "identifier" || w.b.text(obj) != "self" {
		return
	}
	attr := w.b.text(left.ChildByFieldName("attribute"))
	if ty, ok := w.class.AttrTypes[attr]; ok && ty != "" {
		return // the class-level annotation or the first typed assignment wins
	}
	if ty := e.ChildByFieldName("type"); ty != nil {
		w.class.AttrTypes[attr] = w.b.text(ty)
		return
	}
	// An attribute of unknown type is still recorded (as ""): self.fn =
	// requests.post makes self.fn(...) a call of data, not of a method.
	w.class.AttrTypes[attr] = ""
	if right != nil {
		w.class.AttrTypes[attr] = literalType(right.Type())
	}
}

// valueType is the builtin type of a literal expression ("" otherwise).
func valueType(ex *extract.Expr) string {
	if ex == nil {
		return ""
	}
	switch ex.Kind {
	case extract.ExprList:
		return "builtins.list"
	case extract.ExprDict:
		return "builtins.dict"
	case extract.ExprStr, extract.ExprFString, extract.ExprConcat:
		return "builtins.str"
	case extract.ExprNum:
		return "builtins.int"
	case extract.ExprBool:
		return "builtins.bool"
	}
	return ""
}

// literalType is the builtin type of a literal node kind.
func literalType(kind string) string {
	switch kind {
	case "list", "list_comprehension":
		return "builtins.list"
	case "tuple":
		return "builtins.tuple"
	case "set", "set_comprehension":
		return "builtins.set"
	case "dictionary", "dictionary_comprehension":
		return "builtins.dict"
	case "string", "concatenated_string":
		return "builtins.str"
	case "integer", "float":
		return "builtins.int"
	}
	return ""
}

// bindTarget assigns a flow to an assignment target.
func (w *walker) bindTarget(t *syntax.Node, fl extract.Flow, ex *extract.Expr, kind extract.BindKind) {
	if t == nil {
		return
	}
	b := w.b
	switch t.Type() {
	case "identifier":
		name := b.text(t)
		w.env[name] = extend(fl, b.loc(t), name)
		delete(w.types, name)
		if ex != nil && ex.Type != "" {
			w.types[name] = ex.Type
		}
		if ex != nil && ex.Kind == extract.ExprCall && ex.Call != nil {
			if ex.Call.AssignedTo == "" {
				ex.Call.AssignedTo = name
			}
		}
		if !w.replay {
			w.fn.Scope.Add(&extract.Binding{Name: name, Kind: kind, Value: ex, Loc: b.loc(t), Guards: w.guardsNow()})
		}
	case "as_pattern_target":
		for _, c := range named(t) {
			w.bindTarget(c, fl, ex, kind)
		}
	case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list":
		for _, c := range named(t) {
			if c.Type() == "list_splat_pattern" {
				ex = nil // a, *rest = ...: positions after the splat are not known
			}
		}
		for i, c := range named(t) {
			w.bindTarget(c, fl, nil, kind)
			if c.Type() == "identifier" && ex != nil && !w.replay {
				// Element i of the value, for resolvers that can pick it.
				if bs := w.fn.Scope.Bindings[b.text(c)]; len(bs) > 0 {
					bs[len(bs)-1].Unpacked, bs[len(bs)-1].UnpackIndex = ex, i
				}
			}
		}
	case "list_splat_pattern", "parenthesized_expression":
		for _, c := range named(t) {
			w.bindTarget(c, fl, nil, kind)
		}
	case "attribute":
		obj := t.ChildByFieldName("object")
		attr := b.text(t.ChildByFieldName("attribute"))
		if obj.Type() == "identifier" && b.text(obj) == "self" && w.class != nil && ex != nil {
			if ty := ex.Type; ty != "" {
				w.class.SelfTypes[attr] = ty
			} else if ty := w.paramValueType(ex); ty != "" {
				// self.model = model, with model: Model: the declared class.
				w.class.SelfTypes[attr] = ty
			}
		}
		if obj.Type() == "identifier" && b.text(obj) == "self" && w.class != nil && !w.replay {
			// nil when the value is not one expression (a, self.x = f()):
			// a read of the attribute then fails closed.
			addSelfValue(w.class, attr, ex)
			if len(fl) > 0 {
				b.selfStores = append(b.selfStores, selfStore{fn: w.fn, class: w.class, attr: attr, flow: fl, loc: b.loc(t)})
			}
		}
		if name := b.text(obj); obj.Type() == "identifier" && name != "self" {
			// box.body = v puts v's flow into the local object box.
			if _, local := w.env[name]; local {
				w.env[name] = extract.Union(w.env[name], extend(fl, b.loc(t), name+"."+attr))
			}
		}
		w.expr(obj)
	case "subscript":
		// d[k] = v puts v's flow into d.
		v := t.ChildByFieldName("value")
		_, ie := w.expr(t.ChildByFieldName("subscript"))
		if v != nil && v.Type() == "attribute" && w.class != nil && !w.replay {
			// self.tools["x"] = t: t is one of the container's values.
			if o := v.ChildByFieldName("object"); o != nil && o.Type() == "identifier" && b.text(o) == "self" {
				var el *extract.Expr
				if ex != nil {
					el = &extract.Expr{Kind: extract.ExprList, Elems: []*extract.Expr{ex}, Loc: ex.Loc, Scope: ex.Scope}
				}
				addSelfValue(w.class, b.text(v.ChildByFieldName("attribute")), el)
			}
		}
		if v != nil && v.Type() == "identifier" {
			name := b.text(v)
			w.env[name] = extract.Union(w.env[name], extend(fl, b.loc(t), name))
			if ie != nil && ie.Kind == extract.ExprStr && ex != nil && !w.replay {
				w.fn.Items = append(w.fn.Items, extract.Item{Name: name, Key: ie.Str, Value: ex, Loc: b.loc(t)})
			} else if ex != nil && !w.replay {
				w.fn.Items = append(w.fn.Items, extract.Item{Name: name, AnyKey: true, Value: ex, Loc: b.loc(t)})
			}
		} else {
			w.expr(v)
		}
	}
}

// addSelfValue records a value stored in self.attr (see Class.SelfValues).
func addSelfValue(c *extract.Class, attr string, ex *extract.Expr) {
	if c.SelfValues == nil {
		c.SelfValues = map[string][]*extract.Expr{}
	}
	c.SelfValues[attr] = append(c.SelfValues[attr], ex)
}

// typeOf is the type a call's result gets: its qualified callee plus "()",
// when the callee is something whose methods mean something.
func typeOf(c *extract.Call) string {
	switch c.HeadKind {
	case extract.HeadImport, extract.HeadObject, extract.HeadBuiltin:
		return c.Qual + "()"
	case extract.HeadLocal:
		if c.Func != nil {
			if bs := c.Func.Scope.Lookup(strings.SplitN(c.Qual, ".", 2)[0]); len(bs) > 0 && bs[len(bs)-1].Kind == extract.BindClass {
				return c.Qual + "()"
			}
		}
	}
	return ""
}

// extend appends a hop to every origin of a flow.
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

func (w *walker) def(n *syntax.Node, decos []*extract.Expr) *extract.Func {
	b := w.b
	name := b.text(n.ChildByFieldName("name"))
	fn := &extract.Func{Name: name, Decorators: decos, Loc: b.loc(n), NameLoc: b.loc(n.ChildByFieldName("name")), Parent: w.fn}
	fn.Qual = name
	// A def directly in a class body is a method; one nested in a method's
	// body is a helper of that method (it keeps the class for self).
	fn.ClassDef = w.class
	method := w.class != nil && w.fn.Scope == w.class.Scope
	if method {
		fn.Class = w.class.Name
		fn.Qual = w.class.Name + "." + name
	} else if w.fn.Name != "<module>" {
		fn.Qual = w.fn.Qual + "." + name
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.Child(i).Type() == "async" {
			fn.Async = true
		}
	}
	fn.Scope = extract.NewScope(w.fn.Scope, fn)
	b.params(fn, n.ChildByFieldName("parameters"), method)
	fn.ReturnType = b.text(n.ChildByFieldName("return_type"))
	body := n.ChildByFieldName("body")
	b.bodyFacts(fn, body)
	if method {
		w.class.Methods[name] = fn
	} else {
		w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindDef, Func: fn, Loc: fn.NameLoc})
	}
	b.f.Funcs = append(b.f.Funcs, fn)
	b.predeclare(body, fn.Scope)
	cls, types := w.class, w.types
	*w.pending = append(*w.pending, func() { b.walkFunc(fn, body, cls, types) })
	return fn
}

func (b *builder) bodyFacts(fn *extract.Func, body *syntax.Node) {
	if body == nil {
		return
	}
	fn.Body = b.loc(body)
	stmts := named(body)
	if len(stmts) == 0 {
		fn.BodyInsert = fn.Body.Start
		return
	}
	first := stmts[0]
	// The indentation of the body is the text between the line start and
	// its first statement.
	start := int(first.StartByte())
	ls := start
	for ls > 0 && b.src[ls-1] != '\n' {
		ls--
	}
	fn.BodyIndent = string(b.src[ls:start])
	if strings.TrimSpace(fn.BodyIndent) != "" { // body on the def line: `def f(): return x`
		fn.BodyIndent = ""
	}
	insert := first
	if first.Type() == "expression_statement" {
		if s := named(first); len(s) == 1 && s[0].Type() == "string" {
			fn.Docstring = true
			if len(stmts) > 1 {
				insert = stmts[1]
			} else {
				fn.BodyInsert = b.afterLine(first)
				return
			}
		}
	}
	for insert.Type() == "comment" && insert.NextNamedSibling() != nil {
		insert = insert.NextNamedSibling()
	}
	fn.BodyInsert = extract.PointAt(b.src, b.f.Lines, lineStartOf(b.src, int(insert.StartByte())))
}

// afterLine is the start of the line after n ends.
func (b *builder) afterLine(n *syntax.Node) extract.Point {
	end := int(n.EndByte())
	for end < len(b.src) && b.src[end] != '\n' {
		end++
	}
	if end < len(b.src) {
		end++
	}
	return extract.PointAt(b.src, b.f.Lines, end)
}

func lineStartOf(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

var injectedAnnotations = []string{"Injected", "RunnableConfig", "ToolRuntime", "RunContextWrapper", "ToolContext", "Context", "CallbackManager"}

func (b *builder) params(fn *extract.Func, n *syntax.Node, method bool) {
	for _, p := range named(n) {
		var name, ann string
		var def *extract.Expr
		var defCall string
		switch p.Type() {
		case "identifier":
			name = b.text(p)
		case "typed_parameter":
			for _, c := range named(p) {
				if c.Type() == "identifier" {
					name = b.text(c)
					break
				}
				if c.Type() == "list_splat_pattern" || c.Type() == "dictionary_splat_pattern" {
					name = b.text(named(c)[0])
					break
				}
			}
			ann = b.text(p.ChildByFieldName("type"))
		case "default_parameter":
			name = b.text(p.ChildByFieldName("name"))
			def = b.constExpr(p.ChildByFieldName("value"))
			defCall = b.calledName(p.ChildByFieldName("value"))
		case "typed_default_parameter":
			name = b.text(p.ChildByFieldName("name"))
			ann = b.text(p.ChildByFieldName("type"))
			def = b.constExpr(p.ChildByFieldName("value"))
		case "list_splat_pattern", "dictionary_splat_pattern":
			if c := named(p); len(c) > 0 {
				name = b.text(c[0])
			}
		default:
			continue
		}
		if name == "" {
			continue
		}
		inj := method && len(fn.Params) == 0 && (name == "self" || name == "cls")
		for _, a := range injectedAnnotations {
			if strings.Contains(ann, a) {
				inj = true
			}
		}
		fn.Params = append(fn.Params, extract.Param{Name: name, Annotation: ann, Default: def, DefaultCall: defCall, Loc: b.loc(p), Injected: inj})
	}
}

// calledName is the dotted name a call expression calls (`httpx.Client()`:
// "httpx.Client"), or "" for anything else.
func (b *builder) calledName(n *syntax.Node) string {
	if n == nil || n.Type() != "call" {
		return ""
	}
	f := n.ChildByFieldName("function")
	for x := f; x != nil; x = x.ChildByFieldName("object") {
		switch x.Type() {
		case "identifier":
			return b.text(f)
		case "attribute":
			continue
		default:
			return ""
		}
	}
	return ""
}

func (w *walker) classDef(n *syntax.Node, decos []*extract.Expr) {
	b := w.b
	name := b.text(n.ChildByFieldName("name"))
	c := &extract.Class{Name: name, Attrs: map[string]*extract.Expr{}, Methods: map[string]*extract.Func{}, Loc: b.loc(n),
		NameLoc: b.loc(n.ChildByFieldName("name")), SelfTypes: map[string]string{}, Decorators: decos,
		AttrTypes: map[string]string{}}
	for _, base := range named(n.ChildByFieldName("superclasses")) {
		_, ex := w.expr(base)
		c.Bases = append(c.Bases, ex)
	}
	c.Scope = w.fn.Scope
	if _, dup := b.f.Classes[name]; !dup {
		b.f.Classes[name] = c
	}
	w.fn.Scope.Add(&extract.Binding{Name: name, Kind: extract.BindClass, Class: c, Loc: c.NameLoc})
	body := n.ChildByFieldName("body")
	cw := &walker{b: b, fn: w.fn, class: c, env: w.env, types: w.types, dom: w.dom, seen: w.seen, replay: w.replay, pending: w.pending}
	// Class-level assignments are attributes; methods are walked after all
	// of them so that self.x types set in __init__ are known in other methods.
	var methods []func()
	for _, st := range named(body) {
		switch st.Type() {
		case "expression_statement":
			for _, e := range named(st) {
				if e.Type() == "assignment" && e.ChildByFieldName("left").Type() == "identifier" {
					attr := b.text(e.ChildByFieldName("left"))
					if ty := e.ChildByFieldName("type"); ty != nil {
						c.AttrTypes[attr] = b.text(ty) // items: list[Draft]
					}
					if r := e.ChildByFieldName("right"); r != nil {
						_, ex := cw.expr(r)
						c.Attrs[attr] = ex
						if _, ok := c.AttrTypes[attr]; !ok {
							if ty := valueType(ex); ty != "" {
								c.AttrTypes[attr] = ty
							}
						}
					}
				}
			}
		case "function_definition":
			st := st
			if b.text(st.ChildByFieldName("name")) == "__init__" {
				// __init__ first: it is where self attributes get their types.
				methods = append([]func(){func() { cw.def(st, nil) }}, methods...)
			} else {
				methods = append(methods, func() { cw.def(st, nil) })
			}
		case "decorated_definition":
			st := st
			methods = append(methods, func() { cw.stmt(st) })
		}
	}
	for _, m := range methods {
		m()
	}
}
