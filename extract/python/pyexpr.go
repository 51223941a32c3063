package python

import (
	"strings"
	"unicode"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// expr evaluates an expression: the flow of its value, and a tree-free copy
// of it. Calls found inside are recorded on the walker's function.
func (w *walker) expr(n *syntax.Node) (extract.Flow, *extract.Expr) {
	if n == nil {
		return nil, nil
	}
	b := w.b
	ex := &extract.Expr{Loc: b.loc(n), Scope: w.fn.Scope}
	switch n.Type() {
	case "identifier":
		ex.Kind, ex.Name = extract.ExprName, b.text(n)
		ex.Type = w.types[ex.Name]
		return w.env[ex.Name], ex
	case "true", "false":
		ex.Kind, ex.Bool = extract.ExprBool, n.Type() == "true"
		return nil, ex
	case "none":
		ex.Kind = extract.ExprNone
		return nil, ex
	case "integer", "float":
		ex.Kind, ex.Str = extract.ExprNum, b.text(n)
		return nil, ex
	case "string":
		return w.str(n, ex)
	case "concatenated_string":
		var fl extract.Flow
		ex.Kind = extract.ExprFString
		allPlain := true
		for i, c := range named(n) {
			f, e := w.str(c, &extract.Expr{})
			fl = extract.Union(fl, f)
			if e.Kind != extract.ExprStr {
				allPlain = false
			}
			if i == 0 || allPlain {
				ex.Str += e.Str
			}
		}
		if allPlain {
			ex.Kind = extract.ExprStr
		}
		return fl, ex
	case "attribute":
		obj := n.ChildByFieldName("object")
		fl, oe := w.expr(obj)
		attr := b.text(n.ChildByFieldName("attribute"))
		if statusAttrs[attr] {
			// A status code or flag carries no text a third party wrote.
			fl = nil
		}
		fl = fl.Attr(attr) // state.email: the email field of a parameter; cfg.model of a call's value
		if oe != nil && oe.Kind == extract.ExprName {
			ex.Kind, ex.Name = extract.ExprName, oe.Name+"."+attr
		} else {
			ex.Kind, ex.Name, ex.Recv = extract.ExprName, "."+attr, oe
		}
		if oe != nil && oe.Type != "" {
			// An attribute of a typed value is typed through it
			// (Path(p).parent is pathlib.Path().parent; the rules' attributes
			// say what that is), so a method called on it is not data.
			ex.Type = oe.Type + "." + attr
		} else if oe != nil && oe.Kind == extract.ExprName && oe.Name == "self" && w.class != nil {
			// self.folder, set to Path(folder) in a method: that call's type
			// (self.folder / name is then a Path too).
			ex.Type = w.class.SelfTypes[attr]
		}
		if q, ok := w.envRead(ex.Name); ok {
			// os.environ["X"] (subscript) and os.environ.get("X") (a call) are
			// recorded where they happen; a bare os.environ handed on whole
			// is a read of all of it.
			if p := n.Parent(); p != nil && p.Type() != "subscript" && p.Type() != "attribute" && !(p.Type() == "call" && p.ChildByFieldName("function").Equal(n)) {
				return extract.Union(fl, w.pseudoCall(n, q)), ex
			}
		}
		return fl, ex
	case "subscript":
		v := n.ChildByFieldName("value")
		fl, ve := w.expr(v)
		_, ie := w.expr(n.ChildByFieldName("subscript"))
		ex.Kind, ex.Elems = extract.ExprSubscript, []*extract.Expr{ve, ie}
		if ie != nil && ie.Kind == extract.ExprStr {
			fl = fl.Field(ie.Str) // state["email"]: one field of a parameter
		}
		if ve != nil && ve.Type != "" {
			// An element of a typed value (Path(p).parents[2]): the rules'
			// items give its type; unlisted, it is a value of unknown type.
			ex.Type = ve.Type + "[]"
		} else if ve != nil && ve.Kind == extract.ExprName {
			ex.Type = w.selfElementType(ve.Name)
		}
		if ve != nil && ve.Kind == extract.ExprName {
			if q, ok := w.envRead(ve.Name); ok && q != "" {
				return extract.Union(fl, w.pseudoCall(n, q+".__getitem__")), ex
			}
		}
		return fl, ex
	case "call":
		return w.call(n, ex)
	case "list", "tuple", "set", "expression_list", "pattern_list":
		ex.Kind = extract.ExprList
		var fl extract.Flow
		for _, c := range exprKids(n) {
			f, e := w.expr(c)
			fl = extract.Union(fl, f)
			ex.Elems = append(ex.Elems, e)
		}
		return fl, ex
	case "dictionary":
		ex.Kind = extract.ExprDict
		var fl, plain extract.Flow
		creds := false
		for _, c := range exprKids(n) {
			switch c.Type() {
			case "pair":
				kf, ke := w.expr(c.ChildByFieldName("key"))
				vf, ve := w.expr(c.ChildByFieldName("value"))
				fl = extract.Union(fl, extract.Union(kf, vf))
				if k, ok := ke.StrValue(); ok && credentialKw[strings.ToLower(k)] {
					creds = true
				} else {
					plain = extract.Union(plain, extract.Union(kf, vf))
				}
				ex.Keys = append(ex.Keys, ke)
				ex.Elems = append(ex.Elems, ve)
				ex.Flows = append(ex.Flows, vf)
			case "dictionary_splat":
				// {**base, ...}: kept as an entry whose key and value are the
				// splat, so that readers know the dict holds keys they cannot
				// see (no key is provably absent) and registries still reach
				// base's values; Spread says the same to field readers.
				f, e := w.expr(c)
				fl = extract.Union(fl, f)
				if e != nil {
					ex.Keys = append(ex.Keys, e)
					ex.Elems = append(ex.Elems, e)
					ex.Flows = append(ex.Flows, f)
				}
				ex.Spread = true
			default:
				f, _ := w.expr(c)
				fl = extract.Union(fl, f)
				plain = extract.Union(plain, f)
				ex.Spread = true
			}
		}
		if creds {
			if w.plain == nil {
				w.plain = map[*extract.Expr]extract.Flow{}
			}
			w.plain[ex] = plain
		}
		return fl, ex
	case "list_splat", "dictionary_splat":
		var fl extract.Flow
		for _, c := range named(n) {
			f, e := w.expr(c)
			fl = extract.Union(fl, f)
			ex.Kind, ex.Elems = extract.ExprSplat, []*extract.Expr{e}
		}
		return fl, ex
	case "binary_operator":
		lf, le := w.expr(n.ChildByFieldName("left"))
		rf, re := w.expr(n.ChildByFieldName("right"))
		op := strings.TrimSpace(b.text(n.ChildByFieldName("operator")))
		if op == "+" {
			ex.Kind, ex.Elems = extract.ExprConcat, []*extract.Expr{le, re}
			if le != nil && (le.Kind == extract.ExprStr || le.Kind == extract.ExprFString || le.Kind == extract.ExprConcat) {
				ex.Str = le.Str // the constant text the result starts with
				if le.Kind == extract.ExprStr {
					if rs, ok := w.constString(re); ok {
						ex.Str += rs
					}
				}
			} else if k, ok := w.constString(le); ok {
				ex.Str = k
			}
		}
		if op == "|" {
			ex.Kind, ex.Elems = extract.ExprPipe, []*extract.Expr{le, re}
		}
		if op == "/" && le != nil {
			ex.Type = le.Type // pathlib: Path / "name" is a Path
		}
		if op == "%" && le != nil && (le.Kind == extract.ExprStr || le.Kind == extract.ExprFString) {
			ex.Kind, ex.Str = extract.ExprFString, le.Str // "..." % args
		}
		return extract.Union(lf, rf), ex
	case "boolean_operator":
		lf, le := w.expr(n.ChildByFieldName("left"))
		var rf extract.Flow
		var re *extract.Expr
		w.cond(func() { rf, re = w.expr(n.ChildByFieldName("right")) })
		ex.Kind, ex.Elems = extract.ExprBoolOp, []*extract.Expr{le, re}
		ex.Str = strings.TrimSpace(b.text(n.ChildByFieldName("operator")))
		return extract.Union(lf, rf), ex
	case "comparison_operator", "not_operator":
		// The result is a boolean: no data of the operands flows on. The
		// expression is kept when it is simple (x is None, "a" in names,
		// not x) so that a branch a literal argument decides can be
		// dropped when a factory is resolved with its arguments.
		var ops []*extract.Expr
		for _, c := range exprKids(n) {
			_, e := w.expr(c)
			ops = append(ops, e)
		}
		switch {
		case n.Type() == "not_operator" && len(ops) == 1:
			ex.Kind, ex.Elems = extract.ExprNot, ops
		case n.Type() == "comparison_operator" && len(ops) == 2:
			// The operator is the text between the operands: "is not", "in".
			from, to := ops[0].Loc.End.Byte, ops[1].Loc.Start.Byte
			if int(n.StartByte()) <= int(from) && from <= to && int(to) <= int(n.EndByte()) {
				ex.Kind, ex.Elems = extract.ExprCompare, ops
				ex.Str = strings.Join(strings.Fields(string(b.src[from:to])), " ")
			}
		}
		return nil, ex
	case "unary_operator":
		return w.expr(n.ChildByFieldName("argument"))
	case "conditional_expression":
		kids := named(n)
		var fl extract.Flow
		if len(kids) == 3 {
			_, c := w.expr(kids[1])
			var e1, e2 *extract.Expr
			w.cond(func() {
				var f1, f2 extract.Flow
				f1, e1 = w.expr(kids[0])
				f2, e2 = w.expr(kids[2])
				fl = extract.Union(f1, f2)
			})
			if e1 != nil && e2 != nil {
				ex.Kind, ex.Elems, ex.Cond = extract.ExprCond, []*extract.Expr{e1, e2}, c
			}
		}
		return fl, ex
	case "await", "parenthesized_expression":
		var fl extract.Flow
		var inner *extract.Expr
		for _, c := range named(n) {
			if c.Type() == "comment" {
				continue
			}
			fl, inner = w.expr(c)
		}
		if inner != nil {
			inner.Loc = ex.Loc
			return fl, inner
		}
		return fl, ex
	case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
		return w.comprehension(n, ex)
	case "named_expression":
		fl, e := w.expr(n.ChildByFieldName("value"))
		w.bindTarget(n.ChildByFieldName("name"), fl, e, extract.BindAssign)
		return fl, e
	case "lambda":
		ex.Kind = extract.ExprOther
		return nil, ex
	case "keyword_argument":
		return w.expr(n.ChildByFieldName("value"))
	case "slice", "type", "interpolation", "format_expression":
		var fl extract.Flow
		for _, c := range named(n) {
			f, _ := w.expr(c)
			fl = extract.Union(fl, f)
		}
		return fl, ex
	case "yield":
		var fl extract.Flow
		for _, c := range named(n) {
			f, _ := w.expr(c)
			fl = extract.Union(fl, f)
		}
		w.fn.Returns = extract.Union(w.fn.Returns, extend(fl, ex.Loc, "yielded"))
		return nil, ex
	}
	// Anything else: evaluate the children for calls and join their flows.
	var fl extract.Flow
	for _, c := range exprKids(n) {
		f, _ := w.expr(c)
		fl = extract.Union(fl, f)
	}
	return fl, ex
}

// exprKids are the named children of an expression that are expressions:
// a comment inside a list literal (`# WebsiteSearchTool(),`) is not an
// element.
func exprKids(n *syntax.Node) []*syntax.Node {
	kids := named(n)
	for i, k := range kids {
		if k.Type() == "comment" {
			out := append([]*syntax.Node(nil), kids[:i]...)
			for _, k := range kids[i+1:] {
				if k.Type() != "comment" {
					out = append(out, k)
				}
			}
			return out
		}
	}
	return kids
}

func (w *walker) str(n *syntax.Node, ex *extract.Expr) (extract.Flow, *extract.Expr) {
	b := w.b
	ex.Kind = extract.ExprStr
	var fl extract.Flow
	var sb strings.Builder
	prefixDone := false
	for _, c := range named(n) {
		switch c.Type() {
		case "string_content", "escape_sequence":
			if !prefixDone {
				sb.WriteString(b.text(c))
			}
		case "interpolation":
			ex.Kind = extract.ExprFString
			f, ie := w.expr(c.ChildByFieldName("expression"))
			// f"{BASE_URL}/x": a constant string keeps the prefix going, so
			// the host a request goes to is still known.
			if k, ok := w.constString(ie); ok && !prefixDone {
				sb.WriteString(k)
			} else {
				prefixDone = true
			}
			if f == nil {
				for _, cc := range named(c) {
					ff, _ := w.expr(cc)
					f = extract.Union(f, ff)
				}
			}
			fl = extract.Union(fl, f)
		}
	}
	ex.Str = sb.String()
	return fl, ex
}

// constString returns the value of a string literal, or of a name whose
// only value is one (a module constant such as BASE_URL).
func (w *walker) constString(e *extract.Expr) (string, bool) {
	if e == nil {
		return "", false
	}
	if e.Kind == extract.ExprStr {
		return e.Str, true
	}
	if e.Kind != extract.ExprName || strings.Contains(e.Name, ".") || w.env[e.Name] != nil {
		return "", false
	}
	bs := w.fn.Scope.Lookup(e.Name)
	if len(bs) != 1 || bs[0].Kind != extract.BindAssign || bs[0].Value == nil || bs[0].Value.Kind != extract.ExprStr {
		return "", false
	}
	return bs[0].Value.Str, true
}

func (w *walker) comprehension(n *syntax.Node, ex *extract.Expr) (extract.Flow, *extract.Expr) {
	saved := copyEnv(w.env)
	var fl extract.Flow
	var iter, cond *extract.Expr
	loopVar := ""
	ifs := 0
	w.cond(func() {
		var body *syntax.Node
		for _, c := range exprKids(n) {
			switch c.Type() {
			case "for_in_clause":
				rf, re := w.expr(c.ChildByFieldName("right"))
				left := c.ChildByFieldName("left")
				if iter == nil && loopVar == "" {
					iter = re
					if left != nil && left.Type() == "identifier" {
						loopVar = w.b.text(left)
					}
				}
				w.bindTarget(left, rf, nil, extract.BindLoop)
			case "if_clause":
				for _, cc := range named(c) {
					_, ce := w.expr(cc)
					ifs++
					cond = ce
				}
			default:
				if body == nil {
					body = c
				}
			}
		}
		if b := n.ChildByFieldName("body"); b != nil {
			body = b
		}
		var el *extract.Expr
		if body != nil && body.Type() == "pair" {
			// {t.name: t for t in tools}: the elements are the values.
			kf, _ := w.expr(body.ChildByFieldName("key"))
			fl, el = w.expr(body.ChildByFieldName("value"))
			fl = extract.Union(fl, kf)
		} else {
			fl, el = w.expr(body)
		}
		if el != nil {
			ex.Kind, ex.Elems = extract.ExprComp, []*extract.Expr{el}
			if iter != nil && loopVar != "" {
				ex.Elems, ex.Name = append(ex.Elems, iter), loopVar
				if ifs == 1 {
					ex.Cond = cond
				}
			}
		}
	})
	w.env = saved
	if ex.Kind != extract.ExprComp {
		ex.Kind = extract.ExprOther
	}
	return fl, ex
}

// envRead recognises reads of the process environment, which are not calls
// in Python syntax (os.environ["K"]).
func (w *walker) envRead(name string) (string, bool) {
	head, rest, _ := strings.Cut(name, ".")
	bs := w.fn.Scope.Lookup(head)
	if len(bs) == 0 || bs[len(bs)-1].Kind != extract.BindImport {
		return "", false
	}
	q := bs[len(bs)-1].Imp.Qualified()
	if rest != "" {
		q += "." + rest
	}
	if q == "os.environ" {
		return q, true
	}
	return "", false
}

// pseudoCall records a non-call read (os.environ[...]) as a call so that
// effects are decided in one place.
func (w *walker) pseudoCall(n *syntax.Node, qual string) extract.Flow {
	c := w.seen[nodeKey(n)]
	if c == nil {
		c = &extract.Call{Index: len(w.fn.Calls), Func: w.fn, Qual: qual, HeadKind: extract.HeadImport, Loc: w.b.loc(n), Dom: w.dom}
		w.fn.Calls = append(w.fn.Calls, c)
		w.seen[nodeKey(n)] = c
		w.dom = c.Index
	}
	return extract.Flow{{Param: -1, Call: c.Index, Step: &extract.Step{Loc: c.Loc, Msg: qual}}}
}

func nodeKey(n *syntax.Node) [2]uint32 { return [2]uint32{n.StartByte(), n.EndByte()} }

func (w *walker) call(n *syntax.Node, ex *extract.Expr) (extract.Flow, *extract.Expr) {
	b := w.b
	fnode := n.ChildByFieldName("function")
	c := &extract.Call{Func: w.fn, Loc: ex.Loc}
	var recv extract.Flow
	if fnode.Type() == "subscript" {
		// Agent[MyContext](...): a generic class specialised for a type is
		// still that class, so the call is resolved through its value.
		// A table of data indexed and called (_OPS[op](a, b)) is not:
		// its value is whatever the entry holds (see effects' dispatch).
		if v := fnode.ChildByFieldName("value"); v != nil && (v.Type() == "identifier" || v.Type() == "attribute") {
			if _, hk := w.resolveName(b.text(v)); v.Type() == "attribute" || hk != extract.HeadData {
				fnode = v
			}
		}
	}
	// Resolve the callee.
	switch fnode.Type() {
	case "identifier":
		name := b.text(fnode)
		ex.Name = name
		c.Qual, c.HeadKind = w.resolveName(name)
	case "attribute":
		obj := fnode.ChildByFieldName("object")
		attr := b.text(fnode.ChildByFieldName("attribute"))
		chain, base := attrChain(b, fnode)
		if base != nil && base.Type() == "identifier" {
			ex.Name = strings.Join(chain, ".")
			recv = w.env[chain[0]]
			c.Qual, c.HeadKind = w.resolveDotted(chain)
			if len(chain) > 2 || (w.env[chain[0]] != nil && len(chain) > 1) {
				// evaluate the object for inner calls/flows only when it is not a plain name chain
			}
		} else {
			of, oe := w.expr(obj)
			recv = of
			ex.Name, ex.Recv = "."+attr, oe
			if oe != nil && oe.Kind == extract.ExprName {
				ex.Name, ex.Recv = oe.Name+"."+attr, nil
			}
			c.Qual, c.HeadKind = attr, extract.HeadData
			if oe != nil && oe.Type != "" && (oe.Kind != extract.ExprCall || oe.Call == nil) {
				// (Path.home() / "notes.md").read_text(): the object's type is known.
				c.Qual, c.HeadKind = oe.Type+"."+attr, extract.HeadObject
			}
			if oe != nil && oe.Kind == extract.ExprCall && oe.Call != nil {
				switch oe.Call.HeadKind {
				case extract.HeadLocal:
					if typeOf(oe.Call) == "" {
						break // a method on a local function's result: data
					}
					c.Qual, c.HeadKind = oe.Call.Qual+"()."+attr, extract.HeadObject
				case extract.HeadImport, extract.HeadObject, extract.HeadBuiltin:
					c.Qual, c.HeadKind = oe.Call.Qual+"()."+attr, extract.HeadObject
					if len(chain) > 1 {
						c.Qual = oe.Call.Qual + "()." + strings.Join(chain[1:], ".")
					}
				case extract.HeadUnknown:
					c.Qual, c.HeadKind = oe.Call.Qual+"()."+attr, extract.HeadUnknown
				}
			}
		}
	default:
		f, fe := w.expr(fnode)
		recv = f
		ex.Recv = fe
		c.Qual, c.HeadKind = "<expr>", extract.HeadUnknown
	}
	ex.Kind = extract.ExprCall
	// Arguments are evaluated before the call runs.
	var fl extract.Flow
	pos := 0
	args := named(n.ChildByFieldName("arguments"))
	if an := n.ChildByFieldName("arguments"); an != nil && an.Type() == "generator_expression" {
		// any(c.isdigit() for c in s): the generator is the one argument,
		// walked as a comprehension so its loop variable is bound first.
		args = []*syntax.Node{an}
	}
	for _, a := range args {
		if a.Type() == "comment" {
			continue
		}
		arg := extract.Arg{Pos: -1, Loc: b.loc(a)}
		var ae *extract.Expr
		var af extract.Flow
		if a.Type() == "keyword_argument" {
			arg.Kw = b.text(a.ChildByFieldName("name"))
			af, ae = w.expr(a.ChildByFieldName("value"))
			ex.Kw = append(ex.Kw, extract.KwArg{Name: arg.Kw, Value: ae})
		} else {
			arg.Pos = pos
			pos++
			af, ae = w.expr(a)
			ex.Args = append(ex.Args, ae)
		}
		arg.Flow = af
		text := ae
		if ae != nil && ae.Kind == extract.ExprName {
			// query = "SELECT ..."; run(query): the text of a local
			// assigned once, so a statement is read by its verb.
			text = w.onlyValue(ae.Name)
		}
		if text != nil {
			switch text.Kind {
			case extract.ExprStr:
				s := text.Str
				arg.Lit, arg.Prefix = &s, s
			case extract.ExprFString, extract.ExprConcat:
				arg.Prefix = text.Str
			}
		}
		arg.Const = len(af) == 0 && isConstExpr(ae)
		c.Args = append(c.Args, arg)
		library := c.HeadKind == extract.HeadImport || c.HeadKind == extract.HeadObject
		switch p, ok := w.plain[ae]; {
		case library && credentialKw[arg.Kw]:
		case library && ok:
			fl = extract.Union(fl, p) // a dict argument's credential values stay out of the result
		default:
			fl = extract.Union(fl, af)
		}
	}
	res := recv
	if c.HeadKind == extract.HeadData && c.Method() == "get" && len(c.Args) > 0 && c.Args[0].Kw == "" && c.Args[0].Lit != nil {
		res = recv.Field(*c.Args[0].Lit) // state.get("email"): one field
	}
	if prev := w.seen[nodeKey(n)]; prev != nil {
		// A loop body's second pass: same call site, more flows.
		for i := range prev.Args {
			if i < len(c.Args) {
				prev.Args[i].Flow = extract.Union(prev.Args[i].Flow, c.Args[i].Flow)
			}
		}
		prev.Recv = extract.Union(prev.Recv, recv)
		ex.Call, ex.Type = prev, typeOf(prev)
		prev.Expr = ex
		return w.callResult(prev, ex, res, fl), ex
	}
	c.Recv = recv
	if fnode.Type() == "attribute" {
		w.mutation(fnode, ex, fl)
	}
	c.Index = len(w.fn.Calls)
	c.Dom = w.dom
	c.Gate = w.isGateCall(c)
	c.Expr = ex
	w.fn.Calls = append(w.fn.Calls, c)
	w.seen[nodeKey(n)] = c
	w.dom = c.Index
	if c.Gate {
		w.fn.Gates = append(w.fn.Gates, c)
		if w.depth == 0 {
			w.fn.AlwaysGates = true
		}
	}
	ex.Call = c
	ex.Type = typeOf(c)
	return w.callResult(c, ex, res, fl), ex
}

// callResult is the flow of a call's value: the call itself as an origin,
// and, conservatively, whatever flowed into its arguments and receiver
// (str(x), json.dumps(x), x.strip() all carry x) — except for client
// objects, whose later results come from the outside world and not from
// the host name or credentials they were built with.
func (w *walker) callResult(c *extract.Call, ex *extract.Expr, recv, args extract.Flow) extract.Flow {
	self := extract.Flow{{Param: -1, Call: c.Index, Step: &extract.Step{Loc: c.Loc, Msg: shortCallee(ex.Name) + "(...)"}}}
	if isClientCtor(c) || isResponse(c) || isClientReply(c) || (c.HeadKind == extract.HeadBuiltin && scalarBuiltins[c.Qual]) {
		return self
	}
	if runnableConfig[c.Method()] && (c.HeadKind == extract.HeadObject || c.HeadKind == extract.HeadData) {
		// model.with_retry(stop_after_attempt=n).with_config({"model": m}):
		// the same runnable, configured; what it answers comes from its
		// input, not from the settings it was given.
		return extract.Union(self, recv)
	}
	return extract.Union(self, extract.Union(recv, args))
}

// runnableConfig are the methods of a LangChain runnable (a chat model, a
// chain) that return it configured: retries, run config (the model name,
// key and token limit of a configurable model), an output schema, tools.
var runnableConfig = map[string]bool{"with_config": true, "with_retry": true, "with_structured_output": true,
	"bind_tools": true, "configurable_fields": true, "with_types": true}

// credentialKw are keyword arguments that authenticate a library call
// (Client(api_key=os.environ["KEY"])): the value is checked by the other
// side, it is not part of what the call returns (builtins such as
// dict(token=…) and functions of the tree keep it: they may return it). The argument keeps its
// flow, so sending it is still seen.
var credentialKw = map[string]bool{"api_key": true, "apikey": true, "api_token": true, "token": true,
	"x-api-key": true, "authorization": true,
	"access_token": true, "auth_token": true, "bearer_token": true, "client_secret": true, "secret_key": true,
	"password": true, "passwd": true, "credentials": true}

// isClientCtor recognises constructors of connection and client objects.
func isClientCtor(c *extract.Call) bool {
	if c.HeadKind != extract.HeadImport && c.HeadKind != extract.HeadObject {
		return false
	}
	name := c.Method()
	if clientCtors[c.Qual] || modelFactories[c.Qual] {
		return true
	}
	for _, suf := range []string{"Client", "Session", "Connection", "SSL", "SMTP", "IMAP4", "POP3", "Server",
		"LLM", "Ollama", "OpenAI", "Anthropic", "Embeddings"} {
		if strings.HasSuffix(name, suf) && name != "" && name[0] >= 'A' && name[0] <= 'Z' {
			return true
		}
	}
	// Chat models (ChatOpenAI(model=os.environ["MODEL"])): their answers do
	// not contain the model name or key they were built with.
	return strings.HasPrefix(name, "Chat") && len(name) > 4 && name[4] >= 'A' && name[4] <= 'Z'
}

// isResponse recognises HTTP requests: their result is what the server
// sent back, not the URL, token or body that went out.
func isResponse(c *extract.Call) bool {
	if c.HeadKind != extract.HeadImport && c.HeadKind != extract.HeadObject {
		return false
	}
	for _, p := range []string{"requests.", "httpx.", "aiohttp.", "urllib.request.urlopen", "urllib3."} {
		if strings.HasPrefix(c.Qual, p) {
			switch c.Method() {
			case "get", "post", "put", "patch", "delete", "head", "options", "request", "urlopen", "stream":
				return true
			}
		}
	}
	return false
}

// isClientReply recognises a method call on a client object of a service
// (TavilyClient(...).search(q), sqlite3.connect(p).execute(sql)): its
// result is what the service sent back, not the arguments that went out
// (they keep their flows, so sending them is still seen). A model's
// client is not one: its answer may repeat the prompt.
func isClientReply(c *extract.Call) bool {
	if c.HeadKind != extract.HeadObject {
		return false
	}
	i := strings.Index(c.Qual, "().")
	if i <= 0 || strings.Count(c.Qual, "().") != 1 || strings.HasSuffix(c.Qual, "()") || strings.ContainsAny(c.Qual[i+3:], ".[") {
		// A method of what the client returned (a response's .text(), an
		// element's s3.get_object(...)["Body"].read()) carries it.
		return false
	}
	ctor := &extract.Call{Qual: c.Qual[:i], HeadKind: extract.HeadImport}
	if !isClientCtor(ctor) || modelFactories[ctor.Qual] {
		return false
	}
	name := ctor.Method()
	for _, m := range []string{"LLM", "Ollama", "OpenAI", "Anthropic", "Embeddings"} {
		if strings.HasSuffix(name, m) {
			return false
		}
	}
	return !strings.HasPrefix(name, "Chat") && !strings.HasPrefix(c.Qual, "openai.") && !strings.HasPrefix(c.Qual, "anthropic.")
}

// scalarBuiltins return a count, a flag or an identity: no text of their
// arguments reaches the result.
var scalarBuiltins = map[string]bool{"builtins.len": true, "builtins.bool": true, "builtins.isinstance": true,
	"builtins.issubclass": true, "builtins.hasattr": true, "builtins.callable": true, "builtins.id": true,
	"builtins.hash": true, "builtins.type": true, "builtins.any": true, "builtins.all": true}

// modelFactories build a model from its name, provider, key and limits:
// its answers do not contain them (they may repeat the prompt, so a
// model's replies are not client replies).
var modelFactories = map[string]bool{
	"langchain.chat_models.init_chat_model": true, "langchain.chat_models.base.init_chat_model": true,
	"langchain.embeddings.init_embeddings": true, "langchain.embeddings.base.init_embeddings": true}

var clientCtors = map[string]bool{
	"socket.socket": true, "socket.create_connection": true, "boto3.client": true, "boto3.resource": true,
	"boto3.session.Session": true, "sqlite3.connect": true, "psycopg2.connect": true, "psycopg.connect": true,
	"pymysql.connect": true, "mysql.connector.connect": true, "sqlalchemy.create_engine": true,
	"redis.Redis": true, "redis.from_url": true, "pymongo.MongoClient": true, "openai.OpenAI": true,
	"openai.AsyncOpenAI": true, "anthropic.Anthropic": true, "paramiko.SSHClient": true, "ftplib.FTP": true,
	"ftplib.FTP_TLS": true, "telnetlib.Telnet": true, "http.client.HTTPConnection": true, "http.client.HTTPSConnection": true,
	// SDK clients built from a URL and a key (effects/rules.yaml knows their
	// methods): what they return is the service's data, not the key.
	"supabase.create_client": true, "supabase.acreate_client": true, "asyncpg.connect": true, "asyncpg.create_pool": true,
	"praw.Reddit": true, "gitlab.Gitlab": true, "pinecone.Pinecone": true, "pinecone.PineconeAsyncio": true,
	"gspread.service_account": true, "gspread.authorize": true, "gspread.oauth": true, "gspread.service_account_from_dict": true,
	"qdrant_client.QdrantClient": true, "qdrant_client.AsyncQdrantClient": true,
}

// mutation records list growth (tools.append(t), agent.handoffs.extend([...]))
// as bindings, so that tool lists built step by step resolve, and lets the
// appended values' flows into the variable.
func (w *walker) mutation(fnode *syntax.Node, ex *extract.Expr, argFlow extract.Flow) {
	chain, base := attrChain(w.b, fnode)
	if base == nil || base.Type() != "identifier" || len(chain) < 2 || len(chain) > 3 {
		return
	}
	m := chain[len(chain)-1]
	var val *extract.Expr
	switch m {
	case "append", "insert":
		if len(ex.Args) == 0 {
			return
		}
		v := ex.Args[len(ex.Args)-1]
		val = &extract.Expr{Kind: extract.ExprList, Elems: []*extract.Expr{v}, Loc: v.Loc, Scope: v.Scope}
	case "extend":
		if len(ex.Args) == 0 {
			return
		}
		val = ex.Args[0]
	case "update":
		// d.update({...}): the dict gains values (tool registries).
		if len(ex.Args) > 0 {
			val = ex.Args[0]
		}
		if _, local := w.env[chain[0]]; local && len(chain) == 2 {
			w.env[chain[0]] = extract.Union(w.env[chain[0]], argFlow)
		}
		if val == nil {
			return
		}
	case "add":
		if _, local := w.env[chain[0]]; local && len(chain) == 2 {
			w.env[chain[0]] = extract.Union(w.env[chain[0]], extend(argFlow, ex.Loc, chain[0]))
		}
		return
	default:
		// A setter stores what it is given in the object
		// (msg.set_content(body), msg.attach(part), req.add_header(k, v)):
		// what is later done with the object carries it.
		if strings.HasPrefix(m, "set_") || strings.HasPrefix(m, "add_") || m == "attach" {
			if _, local := w.env[chain[0]]; local && len(chain) == 2 {
				w.env[chain[0]] = extract.Union(w.env[chain[0]], extend(argFlow, ex.Loc, chain[0]))
			}
		}
		return
	}
	b := &extract.Binding{Name: chain[0], Kind: extract.BindAppend, Value: val, Loc: ex.Loc, Guards: w.guardsNow()}
	if len(chain) == 3 {
		b.Attr = chain[1]
	}
	w.fn.Scope.Add(b)
	if _, local := w.env[chain[0]]; local && len(chain) == 2 {
		// The container now holds the value: a hop the provers show.
		w.env[chain[0]] = extract.Union(w.env[chain[0]], extend(argFlow, ex.Loc, chain[0]))
	}
}

var statusAttrs = map[string]bool{"status_code": true, "ok": true, "status": true, "is_success": true,
	"is_error": true, "returncode": true, "rowcount": true, "lastrowid": true}

func shortCallee(s string) string {
	if s == "" {
		return "call"
	}
	return s
}

// attrChain flattens a.b.c into ["a","b","c"] and returns the base node.
func attrChain(b *builder, n *syntax.Node) ([]string, *syntax.Node) {
	var rev []string
	for n != nil && n.Type() == "attribute" {
		rev = append(rev, b.text(n.ChildByFieldName("attribute")))
		n = n.ChildByFieldName("object")
	}
	if n != nil && n.Type() == "identifier" {
		rev = append(rev, b.text(n))
	}
	out := make([]string, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out, n
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
		for _, x := range e.Keys {
			if !isConstExpr(x) {
				return false
			}
		}
		return true
	}
	return false
}

// resolveName says what a bare called name is.
func (w *walker) resolveName(name string) (string, extract.HeadKind) {
	if w.reboundGlobal(name) {
		return name, extract.HeadUnknown
	}
	if ty, ok := w.types[name]; ok && w.env[name] != nil {
		return ty, extract.HeadObject // calling an object (a client's __call__)
	}
	if _, local := w.env[name]; local {
		return name, extract.HeadData
	}
	if bs := w.fn.Scope.Lookup(name); len(bs) > 0 {
		bd := bs[len(bs)-1]
		switch bd.Kind {
		case extract.BindImport:
			return bd.Imp.Qualified(), extract.HeadImport
		case extract.BindClass:
			return name, extract.HeadLocal
		case extract.BindDef:
			// A local function: its result is plain data (no methods of
			// interest), unlike a local class instance.
			return name, extract.HeadLocal
		case extract.BindParam:
			return name, extract.HeadData
		}
		if ty, ok := w.types[name]; ok {
			return ty, extract.HeadObject
		}
		return name, extract.HeadData
	}
	if builtinNames[name] || isExceptionName(name) {
		return "builtins." + name, extract.HeadBuiltin
	}
	return name, extract.HeadUnknown
}

// resolveDotted says what a.b.c(...) calls.
func (w *walker) resolveDotted(chain []string) (string, extract.HeadKind) {
	head, rest := chain[0], strings.Join(chain[1:], ".")
	if head == "self" && w.class != nil && len(chain) >= 2 {
		if _, ok := w.class.Methods[chain[1]]; ok && len(chain) == 2 {
			return w.class.Name + "." + chain[1], extract.HeadSelf
		}
		if ty, ok := w.class.SelfTypes[chain[1]]; ok {
			if len(chain) == 2 {
				return ty, extract.HeadObject // calling the object (self.model(messages))
			}
			return ty + "." + strings.Join(chain[2:], "."), extract.HeadObject
		}
		if len(chain) == 2 {
			return w.class.Name + "." + chain[1], extract.HeadSelf // defined later or inherited
		}
		return strings.Join(chain[2:], "."), extract.HeadData
	}
	if head == "cls" && w.class != nil && len(chain) == 2 && len(w.fn.Params) > 0 && w.fn.Params[0].Name == "cls" {
		// cls.helper(...) in a classmethod: a method of the class (or a
		// subclass's override of it), as self.helper(...) is.
		return w.class.Name + "." + chain[1], extract.HeadSelf
	}
	if w.reboundGlobal(head) {
		return strings.Join(chain, "."), extract.HeadUnknown
	}
	if ty, ok := w.types[head]; ok {
		return ty + "." + rest, extract.HeadObject
	}
	if _, local := w.env[head]; local {
		return extract.LastDot(rest), extract.HeadData
	}
	if bs := w.fn.Scope.Lookup(head); len(bs) > 0 {
		bd := bs[len(bs)-1]
		if alias := aliasOf(head, bs); alias != "" && w.aliasDepth < 4 {
			// LegacySettings = Settings: the alias names the same thing.
			w.aliasDepth++
			defer func() { w.aliasDepth-- }()
			return w.resolveDotted(append([]string{alias}, chain[1:]...))
		}
		if ty := optionalType(bs); ty != "" {
			// client = bigquery.Client() at module level, None when that
			// failed (try/except) or before it is set: a call on it is a
			// method of the one type it can have.
			return ty + "." + rest, extract.HeadObject
		}
		switch bd.Kind {
		case extract.BindImport:
			// `import a.b` binds a and a.b: prefer the longest imported prefix.
			for i := len(chain); i > 1; i-- {
				if bs2 := w.fn.Scope.Lookup(strings.Join(chain[:i], ".")); len(bs2) > 0 && bs2[len(bs2)-1].Kind == extract.BindImport {
					q := bs2[len(bs2)-1].Imp.Qualified()
					if i < len(chain) {
						q += "." + strings.Join(chain[i:], ".")
					}
					return q, extract.HeadImport
				}
			}
			return bd.Imp.Qualified() + "." + rest, extract.HeadImport
		case extract.BindClass:
			return head + "." + rest, extract.HeadLocal // Class.staticmethod()
		case extract.BindParam:
			return extract.LastDot(rest), extract.HeadData
		case extract.BindDef:
			if len(chain) == 2 && toolRunMethods[rest] {
				// search_web.invoke(args): a tool of the tree run by its
				// object is its function.
				return head, extract.HeadLocal
			}
		}
		return extract.LastDot(rest), extract.HeadData
	}
	if builtinNames[head] {
		return "builtins." + head + "." + rest, extract.HeadBuiltin
	}
	return strings.Join(chain, "."), extract.HeadUnknown
}

// reboundGlobal reports whether name, read in this function, is a module
// name that some function rebinds with `global name`: its value is any of
// its assignments (research_agent = None at module level, an agent after
// main() ran), so a call on it is unknown, never a method of that None.
// A function's own assignment to it (local or global) is known here.
func (w *walker) reboundGlobal(name string) bool {
	if !w.b.rebound[name] || w.fn.Name == "<module>" {
		return false
	}
	_, local := w.env[name]
	return !local
}

// onlyValue is the value of a local of this function assigned exactly once
// (nil for a parameter, a name assigned twice, or one of an outer scope).
func (w *walker) onlyValue(name string) *extract.Expr {
	if _, local := w.env[name]; !local || w.fn.Scope == nil {
		return nil
	}
	bs := w.fn.Scope.Bindings[name]
	if len(bs) != 1 || bs[0].Kind != extract.BindAssign {
		return nil
	}
	return bs[0].Value
}

// optionalType is the type of a name whose assignments all build values of
// one type or are None (the walker's Expr.Type, "mod.Class()"), else "".
func optionalType(bs []*extract.Binding) string {
	ty := ""
	for _, b := range bs {
		if b.Kind != extract.BindAssign || b.Value == nil {
			return ""
		}
		switch {
		case b.Value.Kind == extract.ExprNone:
		case b.Value.Type == "" || ty != "" && b.Value.Type != ty:
			return ""
		default:
			ty = b.Value.Type
		}
	}
	return ty
}

// toolRunMethods run a tool object (a function made a tool by @tool).
var toolRunMethods = map[string]bool{"invoke": true, "ainvoke": true, "run": true, "arun": true}

// aliasOf is the plain name a name is bound to when its only binding is
// `name = other` (a module-level alias of a class or function), else "".
func aliasOf(name string, bs []*extract.Binding) string {
	if len(bs) != 1 || bs[0].Kind != extract.BindAssign || bs[0].Value == nil || bs[0].Value.Kind != extract.ExprName {
		return ""
	}
	if v := bs[0].Value.Name; v != name && !strings.Contains(v, ".") && v != "" {
		return v
	}
	return ""
}

// constExpr copies a default value without recording calls.
func (b *builder) constExpr(n *syntax.Node) *extract.Expr {
	if n == nil {
		return nil
	}
	e := &extract.Expr{Loc: b.loc(n)}
	switch n.Type() {
	case "string":
		e.Kind = extract.ExprStr
		for _, c := range named(n) {
			if c.Type() == "string_content" {
				e.Str += b.text(c)
			}
		}
	case "true", "false":
		e.Kind, e.Bool = extract.ExprBool, n.Type() == "true"
	case "none":
		e.Kind = extract.ExprNone
	case "integer", "float":
		e.Kind, e.Str = extract.ExprNum, b.text(n)
	}
	return e
}

// isGateCall recognises calls that stop and ask a human before going on:
// LangGraph interrupt(), MCP ctx.elicit(), CrewAI request_human_input(), and
// a console input() prompt.
func (w *walker) isGateCall(c *extract.Call) bool {
	switch c.Qual {
	case "langgraph.types.interrupt", "langgraph.interrupt", "builtins.input":
		return true
	}
	m := c.Method()
	if (m == "elicit" || m == "elicit_url" || m == "request_human_input") && c.HeadKind != extract.HeadImport {
		return true
	}
	return false
}

// selfElementType is the type of an element of an attribute of self that
// the class annotates as a container of one class
// (self.conns: dict[str, Conn]; self.conns[name] is a Conn()), "" otherwise.
func (w *walker) selfElementType(name string) string {
	attr, ok := strings.CutPrefix(name, "self.")
	if !ok || w.class == nil || strings.Contains(attr, ".") {
		return ""
	}
	return w.classValueType(containerElement(w.class.AttrTypes[attr]))
}

// classValueType is the value type ("q()") of an instance of the class a
// (dotted) name denotes here: an imported class, or a class of the file.
// "" when the name is empty or is not a class acg can name.
func (w *walker) classValueType(el string) string {
	if el == "" {
		return ""
	}
	chain := strings.Split(el, ".")
	var q string
	var kind extract.HeadKind
	if len(chain) == 1 {
		q, kind = w.resolveName(el)
	} else {
		q, kind = w.resolveDotted(chain)
	}
	switch kind {
	case extract.HeadImport:
		return q + "()"
	case extract.HeadLocal:
		if bs := w.fn.Scope.Lookup(chain[0]); len(bs) > 0 && bs[len(bs)-1].Kind == extract.BindClass {
			return q + "()"
		}
	}
	return ""
}

// iterElementType is the value type of an element of what a for loop
// iterates: an attribute of self or a parameter annotated as a container
// of one class (self.conns: dict[str, Conn] iterated as self.conns.values(),
// items: list[Item]), "" otherwise.
func (w *walker) iterElementType(ie *extract.Expr) string {
	if ie == nil {
		return ""
	}
	if ie.Kind == extract.ExprCall && ie.Recv == nil && strings.HasSuffix(ie.Name, ".values") && len(ie.Args) == 0 {
		if ty := w.selfElementType(strings.TrimSuffix(ie.Name, ".values")); ty != "" {
			return ty
		}
		return ""
	}
	if ie.Kind != extract.ExprName || ie.Recv != nil {
		return ""
	}
	if ty := w.selfElementType(ie.Name); ty != "" {
		if ann := w.class.AttrTypes[strings.TrimPrefix(ie.Name, "self.")]; dictAnnotation(ann) {
			return "" // iterating a dict gives its keys
		}
		return ty
	}
	if p := w.param(ie.Name); p != nil && !dictAnnotation(p.Annotation) {
		return w.classValueType(containerElement(p.Annotation))
	}
	return ""
}

// paramValueType is the value type of a parameter annotated with a class
// (def __init__(self, model: Model)), when ex names that parameter.
func (w *walker) paramValueType(ex *extract.Expr) string {
	if ex.Kind != extract.ExprName || ex.Recv != nil {
		return ""
	}
	p := w.param(ex.Name)
	if p == nil {
		return ""
	}
	ann := nonOptional(p.Annotation)
	if ann == "" || strings.ContainsAny(ann, "[| ") {
		return ""
	}
	return w.classValueType(ann)
}

// param is the parameter of the walked function that name still denotes
// (not rebound in the body so far), or nil.
func (w *walker) param(name string) *extract.Param {
	bs := w.fn.Scope.Bindings[name]
	if len(bs) != 1 || bs[0].Kind != extract.BindParam {
		return nil
	}
	for i := range w.fn.Params {
		if p := &w.fn.Params[i]; p.Name == name && p.Name != "self" && p.Name != "cls" {
			return p
		}
	}
	return nil
}

func dictAnnotation(ann string) bool {
	head, _, _ := strings.Cut(nonOptional(ann), "[")
	switch extract.LastDot(head) {
	case "dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict":
		return true
	}
	return false
}

// nonOptional is an annotation without its quotes, Optional[...] or
// "| None".
func nonOptional(ann string) string {
	ann = strings.Trim(strings.TrimSpace(ann), `"'`)
	if inner, ok := strings.CutPrefix(ann, "Optional["); ok && strings.HasSuffix(inner, "]") {
		ann = inner[:len(inner)-1]
	}
	if a, b, ok := strings.Cut(ann, "|"); ok && strings.TrimSpace(b) == "None" {
		ann = strings.TrimSpace(a)
	}
	return ann
}

// containerElement is the element class of a container annotation:
// "dict[str, Conn]" and "Mapping[str, Conn]" give the value type,
// "list[Conn]", "Sequence[Conn]" and "tuple[Conn, ...]" the item type;
// Optional[...] and "| None" are stripped. "" when the element is not a
// plain (dotted) name, or the annotation not a known container.
func containerElement(ann string) string {
	ann = nonOptional(ann)
	open := strings.IndexByte(ann, '[')
	if open < 0 || !strings.HasSuffix(ann, "]") {
		return ""
	}
	head, args := extract.LastDot(ann[:open]), strings.Split(ann[open+1:len(ann)-1], ",")
	var el string
	switch head {
	case "dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict":
		if len(args) != 2 {
			return ""
		}
		el = args[1]
	case "list", "List", "Sequence", "MutableSequence", "set", "Set", "frozenset", "Iterable", "deque":
		if len(args) != 1 {
			return ""
		}
		el = args[0]
	case "tuple", "Tuple":
		if len(args) != 2 || strings.TrimSpace(args[1]) != "..." {
			return ""
		}
		el = args[0]
	default:
		return ""
	}
	el = strings.Trim(strings.TrimSpace(el), `"'`)
	for _, r := range el {
		if r != '.' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	return el
}
