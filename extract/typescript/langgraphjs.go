package typescript

import "github.com/acg-dev/acg/extract"

// LangGraph.js (@langchain/langgraph 1.x, @langchain/core 1.x): tools made
// with tool(fn, { name, description, schema }) or new
// DynamicStructuredTool({ name, func }); agents from createReactAgent({
// llm, tools, checkpointer, interruptBefore }) and hand-built graphs (new
// StateGraph(...).addNode(...).addEdge(...).compile({ checkpointer })),
// fluent or through a variable; interrupt(value) in a body asks a human
// before what follows it. The facts are those of the Python adapter
// (extract/python/langgraph.go), so resolution and the checks treat both
// the same.

var (
	lcTools     = []string{"@langchain/core/tools", "langchain/tools", "langchain"}
	lgPrebuilt  = []string{"@langchain/langgraph/prebuilt"}
	lgCore      = []string{"@langchain/langgraph", "@langchain/langgraph/web"}
	lcAgents    = []string{"langchain"}
	builderVerb = map[string]bool{"addNode": true, "addEdge": true, "addConditionalEdges": true, "addSequence": true}
)

// Registered with the front end beside its own adapters (typescript.go).
func init() { adapters = append(adapters, LangGraphJSAdapter) }

// LangGraphJSAdapter finds LangGraph.js tools, agents, graphs and gates.
func LangGraphJSAdapter(f *extract.File) {
	lgGates(f)
	for _, c := range f.Calls() {
		e := c.Expr
		switch {
		case memberOf(c.Qual, "tool", lcTools...):
			opts := e.Arg(1, "")
			name, ok := objStr(opts, "name")
			if !ok {
				name = fwVarName(c, "tool")
			}
			f.AddTool(&extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkLangChain, Kind: extract.ToolFunc,
				Func: fwFunc(f, e.Arg(0, "")), FuncRef: e.Arg(0, ""), Ctor: e, Loc: c.Loc, NameLoc: objKeyLoc(opts, "name")})
		case memberOf(c.Qual, "DynamicStructuredTool", lcTools...) || memberOf(c.Qual, "DynamicTool", lcTools...):
			opts := e.Arg(0, "")
			name, ok := objStr(opts, "name")
			if !ok {
				name = fwVarName(c, "tool")
			}
			f.AddTool(&extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkLangChain, Kind: extract.ToolFunc,
				Func: fwFunc(f, objProp(opts, "func")), FuncRef: objProp(opts, "func"), Ctor: e, Loc: c.Loc, NameLoc: objKeyLoc(opts, "name")})
		case memberOf(c.Qual, "createReactAgent", lgPrebuilt...) || memberOf(c.Qual, "createAgent", lcAgents...):
			opts := e.Arg(0, "")
			a := &extract.Agent{Framework: extract.FrameworkLangGraph, Ctor: extract.LastDot(c.Qual), Loc: c.Loc, NameLoc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = fwVarName(c, a.Ctor)
			if s, ok := objStr(opts, "name"); ok && s != "" {
				a.Name = s
			}
			a.Tools = toolRefs(objProp(opts, "tools"), "tools")
			staticInterruptsJS(a, opts)
			f.AddAgent(a)
		case c.Method() == "compile":
			if g := lgGraph(f, e); g != nil {
				a := &extract.Agent{Framework: extract.FrameworkLangGraph, Ctor: "StateGraph", Loc: c.Loc, NameLoc: c.Loc, Call: e, Var: c.AssignedTo, Graph: g}
				a.Name = fwVarName(c, "graph")
				staticInterruptsJS(a, e.Arg(0, ""))
				lgMembers(f, a, g)
				f.AddAgent(a)
			}
		}
	}
}

// lgGates marks interrupt() calls as gates of the function they are in:
// an action the call dominates runs only after a human answered.
func lgGates(f *extract.File) {
	for _, fn := range f.Funcs {
		for _, c := range fn.Calls {
			if c.Gate || !memberOf(c.Qual, "interrupt", lgCore...) {
				continue
			}
			c.Gate = true
			fn.Gates = append(fn.Gates, c)
		}
	}
}

// staticInterruptsJS reads interruptBefore / interruptAfter (node names,
// "*" for all) and the checkpointer from an options object.
func staticInterruptsJS(a *extract.Agent, opts *extract.Expr) {
	for _, k := range [][2]string{{"interruptBefore", "interrupt_before"}, {"interruptAfter", "interrupt_after"}} {
		v := objProp(opts, k[0])
		nodes := extract.Strings(v)
		if v == nil || len(nodes) == 0 {
			continue
		}
		ap := &extract.Approval{Kind: k[1], Loc: objKeyLoc(opts, k[0]), Nodes: nodes, After: k[1] == "interrupt_after", Expr: v}
		for _, n := range nodes {
			if n == "*" {
				ap.All = true
			}
		}
		a.Approvals = append(a.Approvals, ap)
	}
	if cp := objProp(opts, "checkpointer"); cp != nil {
		if d := extract.Deref(cp); d.Kind != extract.ExprNone && !(d.Kind == extract.ExprBool && !d.Bool) {
			a.Checkpoint = true
		}
	}
}

// lgGraph reads the graph a compile() call compiles: the builder calls
// chained before it (new StateGraph(S).addNode(...)...compile()) or made
// on the variable holding the builder.
func lgGraph(f *extract.File, compile *extract.Expr) *extract.Graph {
	var chain []*extract.Expr
	base := compile.Recv
	for base != nil && base.Kind == extract.ExprCall && builderVerb[base.Method()] {
		chain = append([]*extract.Expr{base}, chain...)
		base = base.Recv
	}
	g := &extract.Graph{}
	if base == nil && len(chain) == 0 {
		// builder.compile(): the builder is a variable.
		n := compile.Name
		if len(n) <= len(".compile") {
			return nil
		}
		v := n[:len(n)-len(".compile")]
		d := extract.Deref(&extract.Expr{Kind: extract.ExprName, Name: v, Scope: compile.Scope})
		// const workflow = new StateGraph(S).addNode(...).addEdge(...):
		// the variable holds the chain, and later calls on it add to it.
		for d != nil && d.Kind == extract.ExprCall && builderVerb[d.Method()] {
			chain = append([]*extract.Expr{d}, chain...)
			d = d.Recv
		}
		if d == nil || d.Kind != extract.ExprCall || !memberOf(callQual(d), "StateGraph", lgCore...) {
			return nil
		}
		g.Var = v
		for _, c := range f.Calls() {
			m := c.Method()
			if builderVerb[m] && c.Expr.Name == v+"."+m {
				chain = append(chain, c.Expr)
			}
		}
		base = d
	} else if base == nil || !memberOf(callQual(base), "StateGraph", lgCore...) {
		return nil
	}
	for _, b := range chain {
		switch b.Method() {
		case "addNode":
			if name, ok := extract.StrArg(b, 0, ""); ok {
				g.Nodes = append(g.Nodes, &extract.GraphNode{Name: name, Action: b.Arg(1, ""), Loc: b.Loc})
			}
		case "addSequence":
			g.Open = true // node names come from an object or list of pairs
		case "addEdge":
			from, ok1 := nodeArg(b.Arg(0, ""))
			to, ok2 := nodeArg(b.Arg(1, ""))
			if ok1 && ok2 {
				g.Edges = append(g.Edges, extract.GraphEdge{From: lgNode(from), To: lgNode(to)})
			} else {
				g.Open = true
			}
		case "addConditionalEdges":
			from, ok := nodeArg(b.Arg(0, ""))
			targets := lgTargets(b.Arg(2, ""))
			if !ok || len(targets) == 0 {
				g.Open = true // a router whose targets are not listed
				continue
			}
			for _, t := range targets {
				g.Edges = append(g.Edges, extract.GraphEdge{From: lgNode(from), To: lgNode(t)})
			}
		}
	}
	return g
}

// lgTargets are the nodes a conditional edge may go to: a list of names
// or the values of a path map ({ tools: "tools", end: END }).
func lgTargets(e *extract.Expr) []string {
	d := extract.Deref(e)
	if d == nil {
		return nil
	}
	var out []string
	var elems []*extract.Expr
	switch d.Kind {
	case extract.ExprList:
		elems = d.Elems
	case extract.ExprDict:
		elems = d.Elems
	default:
		return nil
	}
	for _, x := range elems {
		if s, ok := extract.Deref(x).StrValue(); ok {
			out = append(out, s)
		} else if n := lgConst(x); n != "" {
			out = append(out, n)
		} else {
			return nil
		}
	}
	return out
}

// nodeArg is a node name written as a string or as START / END.
func nodeArg(e *extract.Expr) (string, bool) {
	if s, ok := extract.Deref(e).StrValue(); ok {
		return s, true
	}
	if n := lgConst(e); n != "" {
		return n, true
	}
	return "", false
}

// lgConst names START and END imported from LangGraph.js.
func lgConst(e *extract.Expr) string {
	if e == nil || e.Kind != extract.ExprName {
		return ""
	}
	switch e.Name {
	case "START":
		return "__start__"
	case "END":
		return "__end__"
	}
	return ""
}

func lgNode(n string) string {
	switch n {
	case "START", "__start__":
		return "__start__"
	case "END", "__end__":
		return "__end__"
	}
	return n
}

// lgMembers turns a graph's nodes into the agent's tools: a ToolNode(tools)
// node runs those tools, a function node runs its own code with the
// graph's state (a pseudo-tool, as in the Python adapter), anything else
// (a compiled sub-graph, an agent) is a sub-agent resolved later.
func lgMembers(f *extract.File, a *extract.Agent, g *extract.Graph) {
	for _, n := range g.Nodes {
		act := extract.Deref(n.Action)
		if act == nil {
			continue
		}
		switch {
		case act.Kind == extract.ExprCall && memberOf(callQual(act), "ToolNode", lgPrebuilt...):
			if tl := act.Arg(0, ""); tl != nil {
				a.Tools = append(a.Tools, toolRefs(tl, n.Name)...)
			}
		case act.Kind == extract.ExprName:
			if fn := fwFunc(f, act); fn != nil {
				t := &extract.Tool{Name: n.Name, Symbol: a.Name + "." + n.Name, Framework: extract.FrameworkLangGraph, Kind: extract.ToolNode, Func: fn,
					Loc: fn.Loc, NameLoc: fn.NameLoc}
				f.AddTool(t)
				a.Tools = append(a.Tools, extract.ToolRef{Tool: t, Node: n.Name})
				continue
			}
			a.SubAgents = append(a.SubAgents, act)
			a.Tools = append(a.Tools, extract.ToolRef{Expr: &extract.Expr{Kind: extract.ExprList, Elems: []*extract.Expr{act}, Scope: act.Scope, Loc: act.Loc}, Node: n.Name})
		case act.Kind == extract.ExprCall:
			a.SubAgents = append(a.SubAgents, act)
		}
	}
}
