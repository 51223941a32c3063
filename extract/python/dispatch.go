package python

import (
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// A hand-written LangGraph tool node dispatches the model's tool calls by
// name, and often asks a human only for some of them:
//
//	for call in state["messages"][-1].tool_calls:
//	    if call["name"] in NEEDS_REVIEW:
//	        interrupt(...)
//	    tools_by_name[call["name"]].invoke(call["args"])
//
// dispatchGates reads which tool names such a node always asks about before
// it invokes them. A name counts as gated when every invocation that can
// run for it comes after a gate that must run for it: one that stands only
// under tests of the call's name (==, !=, in, not in, against string
// literals or a literal set, list or tuple), in the body itself, or after an
// `if name not in S: ... continue` that lets only S through. A gate under
// any other condition may be skipped and counts for nothing (fail closed).

func init() { treeAdapters = append(treeAdapters, dispatchGates) }

func dispatchGates(f *extract.File, root *syntax.Node, src []byte) {
	for _, a := range f.Agents {
		if a.Graph == nil {
			continue
		}
		var executors []string
		for _, n := range a.Graph.Nodes {
			fn := n.Func()
			if fn == nil {
				continue
			}
			d := newDispatcher(f, fn, root, src)
			if d == nil || !d.dispatches() {
				continue
			}
			executors = append(executors, n.Name)
			if len(fn.Gates) == 0 || fn.AlwaysGates {
				continue
			}
			if ap := d.approval(root); ap != nil {
				ap.Where = n.Name
				ap.Detail = "graph node " + n.Name + " asks a human before it invokes " + ap.Detail
				a.Approvals = append(a.Approvals, ap)
			}
		}
		// Tools bound to the model with no node known to run them run in
		// the one node that dispatches tool calls by name.
		if len(executors) == 1 {
			for i := range a.Tools {
				if a.Tools[i].Expr != nil && a.Tools[i].Node == "" {
					a.Tools[i].Node = executors[0]
				}
			}
		}
	}
}

// nameTest is one condition on the tool call's name: the name is (or, when
// negated, is not) one of names.
type nameTest struct {
	names  []string
	negate bool
}

func (t nameTest) admits(n string) bool {
	in := false
	for _, x := range t.names {
		if x == n {
			in = true
		}
	}
	return in != t.negate
}

// site is a gate or an invocation with what it takes for it to run.
type site struct {
	n     *syntax.Node
	tests []nameTest
	// sure is false when a condition other than a name test stands before
	// it (a gate there may be skipped).
	sure  bool
	loops []*syntax.Node // enclosing for loops, innermost first
}

func (s site) admits(n string) bool {
	for _, t := range s.tests {
		if !t.admits(n) {
			return false
		}
	}
	return true
}

type dispatcher struct {
	f     *extract.File
	fn    *extract.Func
	src   []byte
	body  *syntax.Node
	calls map[string]bool // variables holding one tool call
	names map[string]bool // variables holding a tool call's name
}

func newDispatcher(f *extract.File, fn *extract.Func, root *syntax.Node, src []byte) *dispatcher {
	fnNode := descendantAt(root, f, fn.Loc)
	if fnNode == nil || fnNode.Type() != "function_definition" {
		return nil
	}
	d := &dispatcher{f: f, fn: fn, src: src, body: fnNode.ChildByFieldName("body"),
		calls: map[string]bool{}, names: map[string]bool{}}
	if d.body == nil {
		return nil
	}
	d.findVars(d.body, 0)
	if len(d.calls) == 0 {
		return nil
	}
	return d
}

// dispatches reports whether the function invokes the tools the model called.
func (d *dispatcher) dispatches() bool {
	var invokes []site
	d.findInvokes(d.body, nil, &invokes, 0)
	return len(invokes) > 0
}

func (d *dispatcher) approval(root *syntax.Node) *extract.Approval {
	f, fn := d.f, d.fn
	var gates []site
	gateNodes := map[*syntax.Node]bool{}
	for _, g := range fn.Gates {
		if n := descendantAt(root, f, g.Loc); n != nil {
			gateNodes[n] = true
			gates = append(gates, d.site(n))
		}
	}
	var invokes []site
	d.findInvokes(d.body, gateNodes, &invokes, 0)
	if len(invokes) == 0 || len(gates) == 0 {
		return nil
	}
	// The names worth asking about: every literal a test compares against,
	// and one that none of them names (any other tool).
	const other = "\x00other"
	cands := map[string]bool{other: true}
	for _, s := range append(append([]site{}, gates...), invokes...) {
		for _, t := range s.tests {
			for _, n := range t.names {
				cands[n] = true
			}
		}
	}
	gated := func(name string) bool {
		for _, c := range invokes {
			if !c.admits(name) {
				continue
			}
			ok := false
			for _, g := range gates {
				if g.sure && g.admits(name) && g.n.EndByte() <= c.n.StartByte() && loopsShared(g.loops, c.loops) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	ap := &extract.Approval{Kind: "interrupt", Loc: fn.Gates[0].Loc}
	var names []string
	for n := range cands {
		if n != other {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var yes, no []string
	for _, n := range names {
		if gated(n) {
			yes = append(yes, n)
		} else {
			no = append(no, n)
		}
	}
	switch {
	case gated(other):
		ap.All, ap.Except = true, no
		ap.Detail = "every tool call"
		if len(no) > 0 {
			ap.Detail += " except " + strings.Join(no, ", ")
		}
	case len(yes) > 0:
		ap.Tools = yes
		ap.Detail = strings.Join(yes, ", ")
	default:
		return nil
	}
	for _, g := range gates {
		if g.sure {
			ap.Loc = (&builder{src: d.src, f: d.f}).loc(g.n)
			break
		}
	}
	return ap
}

// loopsShared: every loop around the gate also encloses the invocation, so
// the gate runs in the same iteration, before it.
func loopsShared(g, c []*syntax.Node) bool {
	for _, l := range g {
		found := false
		for _, x := range c {
			if x.Equal(l) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// findVars collects the variables that hold a tool call (`for call in
// ….tool_calls`, `call = ….tool_calls[0]`) and its name (`name =
// call["name"]`).
func (d *dispatcher) findVars(n *syntax.Node, depth int) {
	if depth > 200 {
		return
	}
	switch n.Type() {
	case "function_definition", "class_definition", "lambda":
		if depth > 0 {
			return
		}
	case "for_statement":
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if l != nil && r != nil && l.Type() == "identifier" && strings.Contains(r.Content(d.src), "tool_calls") {
			d.calls[l.Content(d.src)] = true
		}
	case "assignment":
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if l != nil && r != nil && l.Type() == "identifier" {
			switch {
			case strings.Contains(r.Content(d.src), "tool_calls"):
				d.calls[l.Content(d.src)] = true
			case d.isName(r.Content(d.src)):
				d.names[l.Content(d.src)] = true
			}
		}
	}
	for _, c := range named(n) {
		d.findVars(c, depth+1)
	}
}

// isName reports whether an expression is the current tool call's name.
func (d *dispatcher) isName(s string) bool {
	s = strings.ReplaceAll(strings.TrimSpace(s), "'", `"`)
	if d.names[s] {
		return true
	}
	for v := range d.calls {
		switch s {
		case v + `["name"]`, v + `.get("name")`, v + ".name", v + `["function"]["name"]`, v + ".function.name":
			return true
		}
	}
	return false
}

// usesCall reports whether a text mentions the tool call's arguments or
// name: what an invocation of the called tool passes or looks up.
func (d *dispatcher) usesCall(s string) bool {
	s = strings.ReplaceAll(s, "'", `"`)
	for v := range d.calls {
		for _, p := range []string{v + `["args"]`, v + `.get("args")`, v + ".args", v + `["function"]`, v + ".function"} {
			if strings.Contains(s, p) {
				return true
			}
		}
	}
	return false
}

// findInvokes collects the calls that run a called tool: those passed the
// call's arguments, and .invoke/.ainvoke/.run on a tool looked up by name.
func (d *dispatcher) findInvokes(n *syntax.Node, gates map[*syntax.Node]bool, out *[]site, depth int) {
	if depth > 200 || gates[n] {
		return
	}
	switch n.Type() {
	case "function_definition", "class_definition", "lambda":
		if depth > 0 {
			return
		}
	case "call":
		fnPart := n.ChildByFieldName("function")
		args := n.ChildByFieldName("arguments")
		invoke := false
		if args != nil && d.usesCall(args.Content(d.src)) {
			invoke = true
		}
		if fnPart != nil && fnPart.Type() == "attribute" {
			switch m := fnPart.ChildByFieldName("attribute"); {
			case m == nil:
			case m.Content(d.src) == "invoke", m.Content(d.src) == "ainvoke", m.Content(d.src) == "run", m.Content(d.src) == "arun":
				if recv := fnPart.ChildByFieldName("object"); recv != nil && d.looksUp(recv) {
					invoke = true
					d.markRunsTool(n)
				}
			}
		}
		if invoke {
			*out = append(*out, d.site(n))
		}
	}
	for _, c := range named(n) {
		d.findInvokes(c, gates, out, depth+1)
	}
}

// markRunsTool marks the call at n as running a looked-up tool.
func (d *dispatcher) markRunsTool(n *syntax.Node) {
	for _, c := range d.fn.Calls {
		if int(c.Loc.Start.Byte) == int(n.StartByte()) && int(c.Loc.End.Byte) == int(n.EndByte()) {
			c.RunsTool = true
		}
	}
}

// looksUp reports whether a receiver is a tool chosen by the call's name:
// tools_by_name[call["name"]], a mapping's .get(name), or a variable
// assigned from one.
func (d *dispatcher) looksUp(recv *syntax.Node) bool {
	text := recv.Content(d.src)
	mentions := func(s string) bool {
		for v := range d.calls {
			if strings.Contains(s, v) {
				return true
			}
		}
		for v := range d.names {
			if strings.Contains(s, v) {
				return true
			}
		}
		return false
	}
	if recv.Type() == "subscript" || recv.Type() == "call" {
		return mentions(text)
	}
	if recv.Type() == "identifier" && d.fn.Scope != nil {
		for _, b := range d.fn.Scope.Bindings[text] {
			if b.Kind == extract.BindAssign && b.Value != nil && (b.Value.Kind == extract.ExprSubscript || b.Value.Kind == extract.ExprCall) {
				if l := b.Value.Loc; int(l.End.Byte) <= len(d.src) && l.Start.Byte <= l.End.Byte && mentions(string(d.src[l.Start.Byte:l.End.Byte])) {
					return true
				}
			}
		}
	}
	return false
}

// site reads what it takes for the statement at n to run: the name tests
// of the ifs around it and of the earlier `if …: continue` beside it.
func (d *dispatcher) site(n *syntax.Node) site {
	s := site{n: n, sure: true}
	for cur := n; cur != nil && !cur.Equal(d.body); cur = cur.Parent() {
		p := cur.Parent()
		if p == nil {
			break
		}
		switch p.Type() {
		case "block":
			// Earlier siblings that leave the iteration when their test holds.
			for _, sib := range named(p) {
				if sib.StartByte() >= cur.StartByte() {
					break
				}
				if sib.Type() != "if_statement" || !exits(sib.ChildByFieldName("consequence")) {
					continue
				}
				if t, ok := d.test(sib.ChildByFieldName("condition")); ok {
					t.negate = !t.negate
					s.tests = append(s.tests, t)
				}
			}
		case "if_statement":
			if cons := p.ChildByFieldName("consequence"); cons != nil && cons.Equal(cur) {
				if t, ok := d.test(p.ChildByFieldName("condition")); ok {
					s.tests = append(s.tests, t)
				} else {
					s.sure = false
				}
				continue
			}
			if cur.Type() == "elif_clause" || cur.Type() == "else_clause" {
				// In a later branch: every earlier test failed.
				for i := 0; i < int(p.ChildCount()); i++ {
					c := p.Child(i)
					if c.StartByte() >= cur.StartByte() {
						break
					}
					var cond *syntax.Node
					switch {
					case c.Equal(p.ChildByFieldName("condition")):
						cond = c
					case c.Type() == "elif_clause":
						cond = c.ChildByFieldName("condition")
					default:
						continue
					}
					if t, ok := d.test(cond); ok {
						t.negate = !t.negate
						s.tests = append(s.tests, t)
					} else {
						s.sure = false
					}
				}
				continue
			}
			s.sure = false // in the condition itself
		case "elif_clause":
			if cons := p.ChildByFieldName("consequence"); cons != nil && cons.Equal(cur) {
				if t, ok := d.test(p.ChildByFieldName("condition")); ok {
					s.tests = append(s.tests, t)
				} else {
					s.sure = false
				}
			} else {
				s.sure = false
			}
		case "else_clause":
			// Handled at the if_statement above it.
		case "for_statement":
			if r := p.ChildByFieldName("right"); r != nil && strings.Contains(r.Content(d.src), "tool_calls") {
				s.loops = append(s.loops, p)
			} else {
				s.sure = false // another loop may run no times
			}
		case "try_statement", "with_statement", "expression_statement", "assignment", "augmented_assignment",
			"return_statement", "await", "parenthesized_expression", "expression_list", "argument_list", "keyword_argument",
			"subscript", "attribute", "call", "list", "tuple", "dictionary", "pair":
			// Runs whenever the statement does.
		case "function_definition", "class_definition", "lambda":
			return site{n: n}
		default:
			s.sure = false // except clauses, while loops, conditional expressions, comprehensions …
		}
	}
	return s
}

// exits reports whether a block always leaves the loop iteration.
func exits(b *syntax.Node) bool {
	if b == nil {
		return false
	}
	ns := named(b)
	for i := len(ns) - 1; i >= 0; i-- {
		if ns[i].Type() == "comment" {
			continue
		}
		switch ns[i].Type() {
		case "continue_statement", "return_statement", "raise_statement", "break_statement":
			return true
		}
		return false
	}
	return false
}

// test reads a condition on the call's name: `name == "x"`, `name != "x"`,
// `name in S`, `name not in S`, `"x" == name`, and `or` of positive tests,
// where S is a literal or a variable bound to a literal set, list or tuple
// of strings.
func (d *dispatcher) test(cond *syntax.Node) (nameTest, bool) {
	if cond == nil {
		return nameTest{}, false
	}
	switch cond.Type() {
	case "parenthesized_expression":
		if ns := named(cond); len(ns) == 1 {
			return d.test(ns[0])
		}
	case "not_operator":
		if a := cond.ChildByFieldName("argument"); a != nil {
			t, ok := d.test(a)
			t.negate = !t.negate
			return t, ok
		}
	case "boolean_operator":
		op := cond.ChildByFieldName("operator")
		l, lok := d.test(cond.ChildByFieldName("left"))
		r, rok := d.test(cond.ChildByFieldName("right"))
		if op != nil && op.Content(d.src) == "or" && lok && rok && !l.negate && !r.negate {
			return nameTest{names: append(append([]string{}, l.names...), r.names...)}, true
		}
	case "comparison_operator":
		ns := named(cond)
		if len(ns) != 2 {
			return nameTest{}, false
		}
		op := ""
		for i := 0; i < int(cond.ChildCount()); i++ {
			if c := cond.Child(i); !c.IsNamed() {
				op += c.Content(d.src)
			}
		}
		l, r := ns[0], ns[1]
		isName := func(n *syntax.Node) bool { return d.isName(n.Content(d.src)) }
		switch op {
		case "==", "!=":
			var lit *syntax.Node
			switch {
			case isName(l):
				lit = r
			case isName(r):
				lit = l
			default:
				return nameTest{}, false
			}
			if s, ok := plainString(lit, d.src); ok && lit.Type() == "string" {
				return nameTest{names: []string{s}, negate: op == "!="}, true
			}
		case "in", "notin", "not in":
			if isName(l) {
				if names, ok := d.literalNames(r); ok {
					return nameTest{names: names, negate: op != "in"}, true
				}
			}
		}
	}
	return nameTest{}, false
}

// literalNames reads a collection of string literals, written inline or
// bound to a variable (a module-level NEEDS_REVIEW = {"send_email"}).
func (d *dispatcher) literalNames(n *syntax.Node) ([]string, bool) {
	switch n.Type() {
	case "list", "tuple", "set", "parenthesized_expression":
		out := stringLits(n, d.src)
		return out, len(out) == len(named(n)) && len(out) > 0
	case "identifier":
		e := extract.Deref(&extract.Expr{Kind: extract.ExprName, Name: n.Content(d.src), Scope: d.fn.Scope})
		if e != nil && e.Kind == extract.ExprCall && (e.Name == "frozenset" || e.Name == "set" || e.Name == "tuple" || e.Name == "list") && len(e.Args) == 1 {
			e = extract.Deref(e.Args[0])
		}
		if e == nil || e.Kind != extract.ExprList || len(e.Elems) == 0 {
			return nil, false
		}
		var out []string
		for _, x := range e.Elems {
			s, ok := x.StrValue()
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}
