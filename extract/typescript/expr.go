package typescript

import (
	"strconv"
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// globals are JavaScript's standard globals: a call of one is qualified
// as globalThis.<name> (globalThis.fetch, globalThis.JSON.parse), as
// Python's builtins are builtins.<name>, so no bare name in the effects
// catalogue means a method of every object.
// Only globals the effects catalogue lists (effects/rules_npm.yaml) or
// that are plain data are here: a builtin the catalogue does not list is
// pure, so any other global (WebSocket, crypto) stays unknown and fails
// closed.
var globals = map[string]bool{
	"fetch": true, "eval": true, "Function": true, "JSON": true, "Math": true, "Object": true, "Array": true,
	"String": true, "Number": true, "Boolean": true, "Promise": true, "console": true, "setTimeout": true,
	"setInterval": true, "clearTimeout": true, "clearInterval": true, "URL": true, "URLSearchParams": true,
	"Buffer": true, "Date": true, "RegExp": true, "Error": true, "Map": true, "Set": true,
	"encodeURIComponent": true, "decodeURIComponent": true, "encodeURI": true, "decodeURI": true,
	"parseInt": true, "parseFloat": true, "structuredClone": true, "atob": true, "btoa": true,
	"Response": true, "TextEncoder": true, "TextDecoder": true, "Symbol": true, "BigInt": true,
	"isNaN": true, "isFinite": true, "navigator": true,
	"Uint8Array": true, "Int8Array": true, "Uint8ClampedArray": true, "Uint16Array": true, "Int16Array": true,
	"Uint32Array": true, "Int32Array": true, "Float32Array": true, "Float64Array": true, "BigInt64Array": true,
	"BigUint64Array": true, "ArrayBuffer": true, "DataView": true, "WeakMap": true, "WeakSet": true,
	"Intl": true, "Reflect": true, "Blob": true, "AbortController": true, "Headers": true,
}

// expr walks an expression: the flow of its value and its Expr copy.
func (w *walker) expr(n *syntax.Node) (extract.Flow, *extract.Expr) {
	if n == nil {
		return nil, nil
	}
	b := w.b
	ex := &extract.Expr{Loc: b.loc(n), Scope: w.fn.Scope}
	switch n.Type() {
	case "identifier", "shorthand_property_identifier":
		name := b.text(n)
		ex.Kind, ex.Name = extract.ExprName, name
		if name == "undefined" {
			ex.Kind = extract.ExprNone
			return nil, ex
		}
		return w.env[name], ex
	case "this":
		ex.Kind, ex.Name = extract.ExprName, "this"
		return nil, ex
	case "string":
		s, _ := stringValue(b, n)
		ex.Kind, ex.Str = extract.ExprStr, s
		return nil, ex
	case "template_string":
		var fl extract.Flow
		var prefix strings.Builder
		subst := false
		for _, k := range n.NamedChildren() {
			switch k.Type() {
			case "template_substitution":
				subst = true
				for _, e := range k.NamedChildren() {
					f, _ := w.expr(e)
					fl = extract.Union(fl, f)
				}
			case "string_fragment":
				if !subst {
					prefix.WriteString(b.text(k))
				}
			case "escape_sequence":
				if !subst {
					prefix.WriteString(unescape(b.text(k)))
				}
			}
		}
		if !subst {
			ex.Kind, ex.Str = extract.ExprStr, prefix.String()
			return nil, ex
		}
		ex.Kind, ex.Str = extract.ExprFString, prefix.String()
		return fl, ex
	case "number":
		ex.Kind, ex.Str = extract.ExprNum, b.text(n)
		return nil, ex
	case "true", "false":
		ex.Kind, ex.Bool = extract.ExprBool, n.Type() == "true"
		return nil, ex
	case "null", "undefined":
		ex.Kind = extract.ExprNone
		return nil, ex
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "type_assertion":
		return w.expr(unwrap(n))
	case "await_expression", "yield_expression", "spread_element":
		var fl extract.Flow
		var inner *extract.Expr
		for _, k := range n.NamedChildren() {
			fl, inner = w.expr(k)
		}
		if n.Type() == "spread_element" && inner != nil {
			ex.Kind, ex.Elems = extract.ExprSplat, []*extract.Expr{inner}
			return fl, ex
		}
		if inner == nil {
			return fl, ex
		}
		return fl, inner
	case "object":
		return w.object(n, ex)
	case "array":
		ex.Kind = extract.ExprList
		var fl extract.Flow
		for _, k := range n.NamedChildren() {
			if k.Type() == "comment" {
				continue
			}
			f, e := w.expr(k)
			fl = extract.Union(fl, f)
			if e != nil {
				ex.Elems = append(ex.Elems, e)
			}
		}
		return fl, ex
	case "arrow_function", "function_expression", "function", "generator_function":
		name := w.owner
		if nm := n.ChildByFieldName("name"); nm != nil && name == "" {
			name = b.text(nm)
		}
		fn := w.function(n, name)
		ex.Kind, ex.Name = extract.ExprName, fn.Name
		ex.Scope = nil // the name is the function's, not a binding of the scope
		return nil, ex
	case "class":
		cl := w.classDecl(n)
		ex.Kind, ex.Name = extract.ExprName, cl.Name
		return nil, ex
	case "call_expression", "new_expression":
		return w.call(n, ex)
	case "member_expression":
		return w.member(n, ex)
	case "subscript_expression":
		obj := n.ChildByFieldName("object")
		idx := n.ChildByFieldName("index")
		if chain, ok := w.chain(obj); ok && chain == "process.env" {
			w.expr(idx)
			return w.pseudoCall(n, "process.env.__getitem__"), ex
		}
		of, oe := w.expr(obj)
		_, ie := w.expr(idx)
		ex.Kind, ex.Elems = extract.ExprSubscript, []*extract.Expr{oe, ie}
		if s, ok := ie.StrValue(); ok {
			return of.Field(s), ex
		}
		return of, ex
	case "assignment_expression":
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		w.assign(l, r)
		if l != nil && l.Type() == "identifier" {
			return w.env[b.text(l)], ex
		}
		return nil, ex
	case "augmented_assignment_expression":
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		rf, _ := w.expr(r)
		if l != nil && l.Type() == "identifier" {
			name := b.text(l)
			w.env[name] = extract.Union(w.env[name], extend(rf, b.loc(l), name))
			return w.env[name], ex
		}
		w.expr(l)
		return rf, ex
	case "binary_expression":
		lf, le := w.expr(n.ChildByFieldName("left"))
		rf, re := w.expr(n.ChildByFieldName("right"))
		op := ""
		if o := n.ChildByFieldName("operator"); o != nil {
			op = b.text(o)
		}
		switch op {
		case "+":
			ex.Kind, ex.Elems = extract.ExprConcat, []*extract.Expr{le, re}
			if s, ok := le.StrValue(); ok {
				ex.Str = s
			} else if le != nil && (le.Kind == extract.ExprFString || le.Kind == extract.ExprConcat) {
				ex.Str = le.Str
			}
			return extract.Union(lf, rf), ex
		case "&&", "||", "??":
			ex.Kind, ex.Str, ex.Elems = extract.ExprBoolOp, op, []*extract.Expr{le, re}
			return extract.Union(lf, rf), ex
		case "===", "==", "!==", "!=", "<", ">", "<=", ">=", "in", "instanceof":
			ex.Kind, ex.Str, ex.Elems = extract.ExprCompare, op, []*extract.Expr{le, re}
			return nil, ex
		}
		return extract.Union(lf, rf), ex
	case "unary_expression":
		var fl extract.Flow
		var inner *extract.Expr
		for _, k := range n.NamedChildren() {
			fl, inner = w.expr(k)
		}
		if o := n.ChildByFieldName("operator"); o != nil && b.text(o) == "!" {
			ex.Kind, ex.Elems = extract.ExprNot, []*extract.Expr{inner}
			return nil, ex
		}
		return fl, ex
	case "ternary_expression":
		w.expr(n.ChildByFieldName("condition"))
		var fl extract.Flow
		var first *extract.Expr
		dom := w.dom
		w.depth++
		for _, f := range []string{"consequence", "alternative"} {
			f2, e := w.expr(n.ChildByFieldName(f))
			fl = extract.Union(fl, f2)
			if first == nil {
				first = e
			}
		}
		w.depth--
		w.dom = dom
		if first != nil {
			return fl, first
		}
		return fl, ex
	case "jsx_element", "jsx_self_closing_element", "jsx_fragment", "jsx_expression", "jsx_opening_element", "jsx_attribute":
		var fl extract.Flow
		for _, k := range n.NamedChildren() {
			f, _ := w.expr(k)
			fl = extract.Union(fl, f)
		}
		return fl, ex
	case "sequence_expression", "update_expression":
		var fl extract.Flow
		for _, k := range n.NamedChildren() {
			fl, _ = w.expr(k)
		}
		return fl, ex
	case "regex", "comment", "property_identifier", "type_identifier", "predefined_type", "type_annotation", "type_arguments":
		return nil, ex
	}
	var fl extract.Flow
	for _, k := range n.NamedChildren() {
		f, _ := w.expr(k)
		fl = extract.Union(fl, f)
	}
	return fl, ex
}

// object walks an object literal into an ExprDict with the flow of each
// value; functions in it are Funcs named <owner>.<key>.
func (w *walker) object(n *syntax.Node, ex *extract.Expr) (extract.Flow, *extract.Expr) {
	b := w.b
	ex.Kind = extract.ExprDict
	var fl extract.Flow
	owner := w.owner
	add := func(key *extract.Expr, val *extract.Expr, f extract.Flow) {
		ex.Keys = append(ex.Keys, key)
		ex.Elems = append(ex.Elems, val)
		ex.Flows = append(ex.Flows, f)
		fl = extract.Union(fl, f)
	}
	sub := func(key string) string {
		if owner == "" {
			return ""
		}
		return owner + "." + key
	}
	for _, p := range n.NamedChildren() {
		switch p.Type() {
		case "pair":
			kn := p.ChildByFieldName("key")
			key := propKey(b, kn)
			ke := &extract.Expr{Kind: extract.ExprStr, Str: key, Loc: b.loc(kn)}
			if key == "" && kn != nil {
				ke = &extract.Expr{Kind: extract.ExprOther, Loc: b.loc(kn)}
				if kn.Type() == "computed_property_name" {
					// [WORKSPACE_TOOLS.SANDBOX.EXECUTE_COMMAND]: a constant's
					// name, kept as a name for adapters that know it.
					if k := kn.NamedChildren(); len(k) == 1 && (k[0].Type() == "member_expression" || k[0].Type() == "identifier") {
						ke = &extract.Expr{Kind: extract.ExprName, Name: b.text(k[0]), Loc: b.loc(kn)}
					}
				}
			}
			w.owner = sub(key)
			f, v := w.expr(p.ChildByFieldName("value"))
			w.owner = owner
			add(ke, v, f)
		case "shorthand_property_identifier":
			key := b.text(p)
			f, v := w.expr(p)
			add(&extract.Expr{Kind: extract.ExprStr, Str: key, Loc: b.loc(p)}, v, f)
		case "method_definition":
			kn := p.ChildByFieldName("name")
			key := propKey(b, kn)
			name := sub(key)
			if name == "" {
				name = key
			}
			fn := w.function(p, name)
			add(&extract.Expr{Kind: extract.ExprStr, Str: key, Loc: b.loc(kn)},
				&extract.Expr{Kind: extract.ExprName, Name: fn.Name, Loc: b.loc(p)}, nil)
		case "spread_element":
			// { ...base, x }: kept as an entry whose key and value are the
			// spread (as Python's **base), so that registries and tool maps
			// still reach base's values; Spread tells field readers that
			// the object holds keys they cannot see.
			ex.Spread = true
			f, v := w.expr(p)
			if v != nil {
				add(v, v, f)
			} else {
				fl = extract.Union(fl, f)
			}
		}
	}
	return fl, ex
}

// chain is the dotted text of a plain member chain (a.b.c), if it is one.
func (w *walker) chain(n *syntax.Node) (string, bool) {
	n = unwrap(n)
	if n == nil {
		return "", false
	}
	switch n.Type() {
	case "identifier":
		return w.b.text(n), true
	case "this":
		return "this", true
	case "member_expression":
		if o, ok := w.chain(n.ChildByFieldName("object")); ok {
			p := n.ChildByFieldName("property")
			if p == nil || p.Type() == "private_property_identifier" {
				return "", false
			}
			return o + "." + w.b.text(p), true
		}
	}
	return "", false
}

// member walks a.b: a dotted ExprName when it is a plain chain, with the
// flow of its head narrowed to the field.
func (w *walker) member(n *syntax.Node, ex *extract.Expr) (extract.Flow, *extract.Expr) {
	if c, ok := w.chain(n); ok {
		if strings.HasPrefix(c, "process.env.") && w.fn.Scope.Lookup("process") == nil {
			return w.pseudoCall(n, "process.env.__getitem__"), ex
		}
		if c == "process.env" && w.fn.Scope.Lookup("process") == nil {
			return w.pseudoCall(n, "process.env"), ex
		}
		ex.Kind, ex.Name = extract.ExprName, c
		parts := strings.Split(c, ".")
		fl := w.env[parts[0]]
		if len(parts) > 1 {
			fl = fl.Field(parts[1])
		}
		return fl, ex
	}
	of, oe := w.expr(n.ChildByFieldName("object"))
	prop := w.b.text(n.ChildByFieldName("property"))
	ex.Kind, ex.Name = extract.ExprName, "."+prop
	if oe != nil {
		ex.Recv = oe
	}
	return of.Field(prop), ex
}

// pseudoCall records a read of the environment as a call (as Python's
// os.environ[...] is), so the effects catalogue can say what it reads.
func (w *walker) pseudoCall(n *syntax.Node, qual string) extract.Flow {
	c := &extract.Call{Index: len(w.fn.Calls), Func: w.fn, Qual: qual, HeadKind: extract.HeadBuiltin, Dom: w.dom, Loc: w.b.loc(n)}
	w.fn.Calls = append(w.fn.Calls, c)
	w.dom = c.Index
	return extract.Flow{{Param: -1, Call: c.Index, Step: &extract.Step{Loc: c.Loc, Msg: qual}}}
}

// call walks f(args) and new X(args).
func (w *walker) call(n *syntax.Node, ex *extract.Expr) (extract.Flow, *extract.Expr) {
	b := w.b
	isNew := n.Type() == "new_expression"
	fnode := n.ChildByFieldName("function")
	if isNew {
		fnode = n.ChildByFieldName("constructor")
	}
	fnode = unwrap(fnode)
	c := &extract.Call{Func: w.fn, Loc: b.loc(n), Dom: -1}
	var recv extract.Flow
	ex.Kind = extract.ExprCall
	// require("x") is an import of x: its value is the module.
	if fnode != nil && fnode.Type() == "identifier" && b.text(fnode) == "require" && w.fn.Scope.Lookup("require") == nil {
		if args := n.ChildByFieldName("arguments"); args != nil {
			if k := args.NamedChildren(); len(k) == 1 {
				if s, ok := stringValue(b, k[0]); ok {
					ex.Kind, ex.Name = extract.ExprName, "require:"+Specifier(b.f.Path, s)
					return nil, ex
				}
			}
		}
	}
	switch {
	case fnode == nil:
		c.Qual, c.HeadKind = "<expr>", extract.HeadUnknown
	case fnode.Type() == "identifier":
		name := b.text(fnode)
		ex.Name = name
		c.Qual, c.HeadKind = w.resolveName(name)
	case fnode.Type() == "super" && w.class != nil && len(w.class.Bases) == 1 && w.class.Bases[0].Kind == extract.ExprName:
		// super(...) runs the base class's constructor: a call of the base
		// (Error is a global, a base of the tree or an import resolves so).
		c.Qual, c.HeadKind = w.resolveName(w.class.Bases[0].Name)
	default:
		if chain, ok := w.chain(fnode); ok {
			ex.Name = chain
			parts := strings.Split(chain, ".")
			recv = w.env[parts[0]]
			c.Qual, c.HeadKind = w.resolveDotted(parts)
		} else if fnode.Type() == "member_expression" {
			obj := fnode.ChildByFieldName("object")
			attr := b.text(fnode.ChildByFieldName("property"))
			of, oe := w.expr(obj)
			recv = of
			ex.Name, ex.Recv = "."+attr, oe
			c.Qual, c.HeadKind = attr, extract.HeadData
			if oe != nil && oe.Kind == extract.ExprCall && oe.Call != nil {
				switch oe.Call.HeadKind {
				case extract.HeadImport, extract.HeadObject, extract.HeadBuiltin:
					c.Qual, c.HeadKind = oe.Call.Qual+"()."+attr, extract.HeadObject
				case extract.HeadUnknown:
					c.Qual, c.HeadKind = oe.Call.Qual+"()."+attr, extract.HeadUnknown
				}
			} else if oe != nil && oe.Type != "" {
				c.Qual, c.HeadKind = oe.Type+"."+attr, extract.HeadObject
			}
		} else {
			f, fe := w.expr(fnode)
			recv = f
			ex.Recv = fe
			c.Qual, c.HeadKind = "<expr>", extract.HeadUnknown
		}
	}
	// Arguments run before the call.
	var fl extract.Flow
	if args := n.ChildByFieldName("arguments"); args != nil && args.Type() == "arguments" {
		pos := 0
		owner := w.owner
		for _, a := range args.NamedChildren() {
			if a.Type() == "comment" {
				continue
			}
			arg := extract.Arg{Pos: pos, Loc: b.loc(a)}
			pos++
			af, ae := w.expr(a)
			ex.Args = append(ex.Args, ae)
			arg.Flow = af
			if ae != nil {
				switch ae.Kind {
				case extract.ExprStr:
					s := ae.Str
					arg.Lit, arg.Prefix = &s, s
				case extract.ExprFString, extract.ExprConcat:
					arg.Prefix = ae.Str
				}
			}
			arg.Const = len(af) == 0 && isConstExpr(ae)
			c.Args = append(c.Args, arg)
			fl = extract.Union(fl, af)
		}
		w.owner = owner
	}
	w.mutation(ex, fl)
	c.Recv = recv
	c.Index = len(w.fn.Calls)
	c.Dom = w.dom
	if w.depth == 0 && memberOf(c.Qual, "interrupt", lgCore...) {
		// interrupt() outside any condition: the node asks a human before
		// whatever follows it (lgGates marks the call itself).
		w.fn.AlwaysGates = true
	}
	c.Expr = ex
	ex.Call = c
	w.fn.Calls = append(w.fn.Calls, c)
	w.dom = c.Index
	switch c.HeadKind {
	case extract.HeadImport, extract.HeadObject, extract.HeadBuiltin:
		ex.Type = c.Qual + "()"
	case extract.HeadLocal:
		// new Outbox() of a class of this module: an instance, so a method
		// called on it is the class's.
		head, _, _ := strings.Cut(c.Qual, ".")
		if bs := w.fn.Scope.Lookup(head); len(bs) > 0 {
			switch bd := bs[len(bs)-1]; {
			case bd.Kind == extract.BindClass:
				ex.Type = c.Qual + "()"
			case bd.Kind == extract.BindDef && bd.Func != nil && head == c.Qual:
				// getSandbox(): Promise<Sandbox>, Sandbox imported: its
				// result is a Sandbox. Any other annotation says nothing
				// the rules know, and the result stays plain data.
				ex.Type = w.importedType(awaitedType(bd.Func.ReturnType))
				if bd.Func.ReturnType == "" {
					ex.Type = returnedType(bd.Func)
				}
			}
		}
	}
	self := extract.Flow{{Param: -1, Call: c.Index, Step: &extract.Step{Loc: c.Loc, Msg: shortCallee(ex.Name) + "(...)"}}}
	return extract.Union(self, extract.Union(recv, fl)), ex
}

// mutators are the methods that put their arguments into the object they
// are called on (an array, a map, a set).
var mutators = map[string]bool{"push": true, "unshift": true, "splice": true, "set": true, "add": true, "append": true, "fill": true}

// mutation makes what a call puts into a local object part of that
// object's value: messages.push(text) carries text into messages, and
// Object.assign(target, src) src into target.
func (w *walker) mutation(ex *extract.Expr, args extract.Flow) {
	if len(args) == 0 || ex.Recv != nil {
		return
	}
	parts := strings.Split(ex.Name, ".")
	target := ""
	switch {
	case len(parts) == 2 && mutators[parts[1]]:
		target = parts[0]
	case ex.Name == "Object.assign" && len(ex.Args) > 0 && ex.Args[0] != nil && ex.Args[0].Kind == extract.ExprName && !strings.Contains(ex.Args[0].Name, "."):
		target = ex.Args[0].Name
	}
	if _, local := w.env[target]; target == "" || !local {
		return
	}
	w.env[target] = extract.Union(w.env[target], extend(args, ex.Loc, target))
}

func shortCallee(s string) string {
	if s == "" {
		return "call"
	}
	return s
}

// resolveName says what a call of a bare name calls.
func (w *walker) resolveName(name string) (string, extract.HeadKind) {
	if ty, ok := w.types[name]; ok {
		if _, local := w.env[name]; local {
			return ty, extract.HeadObject
		}
	}
	if bs := w.fn.Scope.Lookup(name); len(bs) > 0 {
		bd := bs[len(bs)-1]
		switch bd.Kind {
		case extract.BindImport:
			if bd.Imp.Symbol == "" {
				return bd.Imp.Module, extract.HeadImport
			}
			return bd.Imp.Qualified(), extract.HeadImport
		case extract.BindDef, extract.BindClass:
			return name, extract.HeadLocal
		case extract.BindParam:
			return name, extract.HeadData
		}
		if m, ok := requireOf(bd); ok {
			return m, extract.HeadImport
		}
		if ty, ok := w.types[name]; ok {
			return ty, extract.HeadObject
		}
		return name, extract.HeadData
	}
	if _, local := w.env[name]; local {
		return name, extract.HeadData
	}
	if globals[name] {
		return "globalThis." + name, extract.HeadBuiltin
	}
	return name, extract.HeadUnknown
}

// requireOf is the module a binding holds when it was assigned a
// require("x") (or a member of one: require("x").y).
func requireOf(bd *extract.Binding) (string, bool) {
	if bd.Kind != extract.BindAssign || bd.Value == nil || bd.Value.Kind != extract.ExprName {
		return "", false
	}
	if m, ok := strings.CutPrefix(bd.Value.Name, "require:"); ok {
		return m, true
	}
	return "", false
}

// resolveDotted says what a.b.c(...) calls.
func (w *walker) resolveDotted(chain []string) (string, extract.HeadKind) {
	head, rest := chain[0], strings.Join(chain[1:], ".")
	if head == "this" && w.class != nil && len(chain) >= 2 {
		if _, ok := w.class.Methods[chain[1]]; ok && len(chain) == 2 {
			return w.class.Name + "." + chain[1], extract.HeadSelf
		}
		if ty, ok := w.class.SelfTypes[chain[1]]; ok && len(chain) > 2 {
			return ty + "." + strings.Join(chain[2:], "."), extract.HeadObject
		}
		if len(chain) == 2 {
			return w.class.Name + "." + chain[1], extract.HeadSelf
		}
		return extract.LastDot(rest), extract.HeadData
	}
	if ty, ok := w.types[head]; ok {
		return ty + "." + rest, extract.HeadObject
	}
	if bs := w.fn.Scope.Lookup(head); len(bs) > 0 {
		bd := bs[len(bs)-1]
		switch bd.Kind {
		case extract.BindImport:
			if bd.Imp.Symbol == "" {
				return bd.Imp.Module + "." + rest, extract.HeadImport
			}
			return bd.Imp.Qualified() + "." + rest, extract.HeadImport
		case extract.BindClass:
			return head + "." + rest, extract.HeadLocal
		case extract.BindParam:
			return extract.LastDot(rest), extract.HeadData
		}
		if m, ok := requireOf(bd); ok {
			return m + "." + rest, extract.HeadImport
		}
		return extract.LastDot(rest), extract.HeadData
	}
	if _, local := w.env[head]; local {
		return extract.LastDot(rest), extract.HeadData
	}
	if globals[head] {
		return "globalThis." + head + "." + rest, extract.HeadBuiltin
	}
	return strings.Join(chain, "."), extract.HeadUnknown
}

func isConstExpr(e *extract.Expr) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case extract.ExprStr, extract.ExprNum, extract.ExprBool, extract.ExprNone:
		return true
	case extract.ExprList, extract.ExprDict:
		for _, x := range e.Elems {
			if !isConstExpr(x) {
				return false
			}
		}
		return !e.Spread
	}
	return false
}

// constExpr copies a default value without walking it for flows.
func (b *builder) constExpr(n *syntax.Node) *extract.Expr {
	ex := &extract.Expr{Loc: b.loc(n)}
	switch n.Type() {
	case "string":
		s, _ := stringValue(b, n)
		ex.Kind, ex.Str = extract.ExprStr, s
	case "number":
		ex.Kind, ex.Str = extract.ExprNum, b.text(n)
	case "true", "false":
		ex.Kind, ex.Bool = extract.ExprBool, n.Type() == "true"
	case "null", "undefined":
		ex.Kind = extract.ExprNone
	case "identifier":
		ex.Kind, ex.Name = extract.ExprName, b.text(n)
	}
	return ex
}

var _ = strconv.Itoa

// awaitedType is what awaiting a value of an annotated type gives:
// Promise<T> is T.
func awaitedType(typ string) string {
	typ = strings.TrimSpace(typ)
	if inner, ok := strings.CutPrefix(typ, "Promise<"); ok && strings.HasSuffix(inner, ">") {
		return strings.TrimSpace(inner[:len(inner)-1])
	}
	return typ
}

// returnedType is the type of what an unannotated function returns when
// every return gives a value of one type a call built
// (function slack() { return new WebClient(token); }), else "".
func returnedType(fn *extract.Func) string {
	ty := ""
	for _, r := range fn.ReturnExprs {
		if r == nil || !strings.HasSuffix(r.Type, "()") || ty != "" && r.Type != ty {
			return ""
		}
		ty = r.Type
	}
	return ty
}
