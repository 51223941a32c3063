package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// LangGraph and LangChain: @tool functions, StructuredTool/Tool wrappers,
// BaseTool subclasses, create_react_agent, create_agent with
// HumanInTheLoopMiddleware, and hand-built StateGraphs.

func init() { adapters = append(adapters, langchainTools, langgraphAgents) }

// langchain_classic is where LangChain 1.0 moved the legacy agents and tools.
var langchainTops = []string{"langchain_core", "langchain", "langchain_classic", "langchain_community", "langgraph", "langchain_experimental"}

func langchainTools(f *extract.File) {
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			q, call := decoratorTarget(d)
			if !extract.QualIs(q, "tool", langchainTops...) {
				continue
			}
			t := &extract.Tool{Name: fn.Name, Symbol: fn.Name, Framework: extract.FrameworkLangChain, Kind: extract.ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if call != nil {
				if s, ok := extract.StrArg(call, 0, "name"); ok {
					t.Name = s
				}
			}
			f.AddTool(t)
		}
	}
	for _, c := range f.Calls() {
		e := c.Expr
		q := c.Qual
		switch {
		case c.HeadKind == extract.HeadImport && (extract.QualIs(q, "from_function", langchainTops...) && strings.Contains(q, "Tool.")) ||
			c.HeadKind == extract.HeadImport && extract.QualIs(q, "Tool", langchainTops...) ||
			c.HeadKind == extract.HeadImport && extract.QualIs(q, "StructuredTool", langchainTops...) && (e.Kwarg("func") != nil || e.Kwarg("coroutine") != nil):
			// StructuredTool.from_function(func=f, name=...), Tool(name=, func=),
			// StructuredTool(name=, args_schema=, func= | coroutine=)
			fref := e.Arg(0, "func")
			if extract.QualIs(q, "StructuredTool", langchainTops...) {
				fref = e.Kwarg("func")
			}
			if fref == nil {
				fref = e.Kwarg("coroutine")
			}
			if extract.QualIs(q, "Tool", langchainTops...) {
				fref = e.Kwarg("func")
				if fref == nil && len(e.Args) >= 2 {
					fref = e.Args[1]
				}
			}
			name, _ := extract.StrArg(e, -1, "name")
			if extract.QualIs(q, "Tool", langchainTops...) && name == "" {
				name, _ = extract.StrArg(e, 0, "name")
			}
			if name == "" && fref != nil && fref.Kind == extract.ExprName {
				name = extract.LastDot(fref.Name)
			}
			t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkLangChain, Kind: extract.ToolFunc, FuncRef: fref,
				Ctor: e, Loc: c.Loc, NameLoc: c.Loc}
			if fref != nil && fref.Kind == extract.ExprName && !strings.Contains(fref.Name, ".") {
				t.Func = extract.FuncDef(fref.Scope, fref.Name)
			}
			f.AddTool(t)
		case c.HeadKind == extract.HeadImport && extract.QualIs(q, "tool", langchainTops...) && len(e.Args) >= 2:
			// tool("name", runnable_or_function)
			name, _ := e.Args[0].StrValue()
			t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkLangChain, Kind: extract.ToolFunc, FuncRef: e.Args[1],
				Ctor: e, Loc: c.Loc, NameLoc: c.Loc}
			if e.Args[1].Kind == extract.ExprName {
				t.Func = extract.FuncDef(e.Args[1].Scope, e.Args[1].Name)
			}
			f.AddTool(t)
		}
	}
	// @tool on a pydantic class makes a schema-only tool: the model fills
	// its fields and nothing runs.
	for _, cl := range f.Classes {
		for _, d := range cl.Decorators {
			if q, _ := decoratorTarget(d); extract.QualIs(q, "tool", langchainTops...) {
				f.AddTool(&extract.Tool{Name: cl.Name, Symbol: cl.Name, Framework: extract.FrameworkLangChain, Kind: extract.ToolClass, Decorator: d,
					Loc: cl.Loc, NameLoc: cl.NameLoc, Extra: map[extract.ExtraKey]string{extract.ExtraSchemaOnly: "true"}})
			}
		}
	}
	// BaseTool subclasses: the model sees `name`, the body is _run/_arun.
	for _, cl := range f.Classes {
		if !hasBase(cl, "BaseTool", langchainTops...) {
			continue
		}
		t := &extract.Tool{Name: cl.Name, Symbol: cl.Name, Framework: extract.FrameworkLangChain, Kind: extract.ToolClass, Loc: cl.Loc, NameLoc: cl.NameLoc}
		if s, ok := cl.Attrs["name"].StrValue(); ok {
			t.Name = s
		}
		t.Func = cl.Methods["_run"]
		if t.Func == nil {
			t.Func = cl.Methods["_arun"]
		}
		f.AddTool(t)
	}
}

func hasBase(cl *extract.Class, name string, tops ...string) bool {
	for _, b := range cl.Bases {
		if extract.QualIs(extract.QualOf(b), name, tops...) {
			return true
		}
	}
	return false
}

func langgraphAgents(f *extract.File) {
	graphs := map[*extract.Call]*extract.Graph{} // by the StateGraph(...) call
	var ctors []*extract.Call                    // in source order
	for _, c := range f.Calls() {
		e, q := c.Expr, c.Qual
		if c.HeadKind != extract.HeadImport {
			continue
		}
		switch {
		case extract.QualIs(q, "create_react_agent", "langgraph"):
			a := &extract.Agent{Framework: extract.FrameworkLangGraph, Ctor: "create_react_agent", Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "create_react_agent")
			if tl := e.Arg(1, "tools"); tl != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: tl, Node: "tools"})
			}
			a.Graph = &extract.Graph{Nodes: []*extract.GraphNode{{Name: "agent", Model: true}, {Name: "tools"}},
				Edges: []extract.GraphEdge{{From: "__start__", To: "agent"}, {From: "agent", To: "tools"}, {From: "tools", To: "agent"}, {From: "agent", To: "__end__"}}}
			staticInterrupts(a, e)
			f.AddAgent(a)
		case extract.QualIs(q, "create_agent", "langchain"):
			a := &extract.Agent{Framework: extract.FrameworkLangChain, Ctor: "create_agent", Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "create_agent")
			if tl := e.Arg(1, "tools"); tl != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: tl, Node: "tools"})
			}
			a.Graph = &extract.Graph{Nodes: []*extract.GraphNode{{Name: "model", Model: true}, {Name: "tools"}},
				Edges: []extract.GraphEdge{{From: "__start__", To: "model"}, {From: "model", To: "tools"}, {From: "tools", To: "model"}, {From: "model", To: "__end__"}}}
			staticInterrupts(a, e)
			middleware(a, e.Kwarg("middleware"))
			f.AddAgent(a)
		case extract.QualIs(q, "create_react_agent", "langchain", "langchain_classic"):
			// LangChain's own ReAct constructor (langchain.agents): invoked
			// by itself it runs its tools like LangGraph's; handed to an
			// AgentExecutor, the executor is the agent (wrappedAgents).
			a := &extract.Agent{Framework: extract.FrameworkLangChain, Ctor: "create_react_agent", Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "create_react_agent")
			if tl := e.Arg(1, "tools"); tl != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: tl})
			}
			f.AddAgent(a)
		// The legacy agents live in langchain_classic since LangChain 1.0.
		case extract.QualIs(q, "initialize_agent", "langchain", "langchain_classic"):
			// Legacy LangChain: initialize_agent(tools, llm, agent=...) returns
			// the AgentExecutor that runs the tool loop.
			a := &extract.Agent{Framework: extract.FrameworkLangChain, Ctor: "initialize_agent", Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "initialize_agent")
			if tl := e.Arg(0, "tools"); tl != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: tl})
			}
			f.AddAgent(a)
		case extract.QualIs(q, "AgentExecutor", "langchain", "langchain_classic") || extract.QualIs(q, "from_agent_and_tools", "langchain", "langchain_classic") && strings.Contains(q, "AgentExecutor."):
			// AgentExecutor(agent=runnable, tools=[...]): the runnable (from
			// create_tool_calling_agent & co.) only picks the next step; the
			// executor is the loop that runs the tools.
			a := &extract.Agent{Framework: extract.FrameworkLangChain, Ctor: "AgentExecutor", Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "AgentExecutor")
			tl := e.Kwarg("tools")
			if tl == nil && extract.LastDot(q) == "from_agent_and_tools" {
				tl = e.Arg(1, "tools")
			}
			if tl != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: tl})
			}
			f.AddAgent(a)
		case extract.QualIs(q, "create_deep_agent", "deepagents") || extract.QualIs(q, "async_create_deep_agent", "deepagents"):
			deepAgent(f, c)
		case extract.QualIs(q, "StateGraph", "langgraph") || extract.QualIs(q, "MessageGraph", "langgraph"):
			graphs[c] = &extract.Graph{Var: c.AssignedTo}
			ctors = append(ctors, c)
		}
	}
	wrappedAgents(f)
	compileElsewhere(f, graphs)
	if len(graphs) == 0 {
		return
	}
	// Builder method calls, on a variable (builder.add_node(...)) or
	// fluently on the builder itself (StateGraph(S).add_node(...).compile()):
	// each is applied to the graph its receiver denotes. The graph is
	// complete before any compile() is read: a function body that adds
	// nodes may come after the module code that compiles its result.
	compiled := map[*extract.Graph]bool{}
	calls := f.Calls()
	var ordered []*extract.Call
	for _, c := range calls {
		if builderMethods[c.Expr.Method()] {
			ordered = append(ordered, c)
		}
	}
	for _, c := range calls {
		if c.Expr.Method() == "compile" {
			ordered = append(ordered, c)
		}
	}
	for _, c := range ordered {
		e := c.Expr
		m := e.Method()
		g := builderOf(graphs, receiverOf(e), 0)
		if g == nil {
			continue
		}
		switch m {
		case "add_node":
			addNode(g, e)
		case "add_edge":
			to := extract.GraphConst(extract.Deref(e.Arg(1, "end_key")))
			for _, from := range extract.Strings(e.Arg(0, "start_key")) {
				g.Edges = append(g.Edges, extract.GraphEdge{From: from, To: to})
			}
			if fe := extract.Deref(e.Arg(0, "start_key")); fe != nil && fe.Kind == extract.ExprName {
				g.Edges = append(g.Edges, extract.GraphEdge{From: extract.GraphConst(fe), To: to})
			}
		case "add_sequence":
			prev := ""
			if l := extract.Deref(e.Arg(0, "nodes")); l != nil {
				for _, el := range l.Elems {
					name := addNode(g, &extract.Expr{Kind: extract.ExprCall, Args: []*extract.Expr{el}, Scope: el.Scope, Loc: el.Loc})
					if prev != "" {
						g.Edges = append(g.Edges, extract.GraphEdge{From: prev, To: name})
					}
					prev = name
				}
			}
		case "set_entry_point":
			if s, ok := extract.StrArg(e, 0, "key"); ok {
				g.Edges = append(g.Edges, extract.GraphEdge{From: "__start__", To: s})
			}
		case "set_finish_point":
			if s, ok := extract.StrArg(e, 0, "key"); ok {
				g.Edges = append(g.Edges, extract.GraphEdge{From: s, To: "__end__"})
			}
		case "add_conditional_edges", "set_conditional_entry_point":
			src := "__start__"
			pathIdx := 0
			if m == "add_conditional_edges" {
				src = extract.GraphConst(extract.Deref(e.Arg(0, "source")))
				pathIdx = 1
			}
			targets, known := routerTargets(e.Arg(pathIdx, "path"), e.Arg(pathIdx+1, "path_map"))
			if !known {
				g.Open = true
			}
			for _, t := range targets {
				g.Edges = append(g.Edges, extract.GraphEdge{From: src, To: t})
			}
		case "compile":
			name := agentName(e, c, "graph")
			a := &extract.Agent{Framework: extract.FrameworkLangGraph, Ctor: "StateGraph", Name: name, Var: c.AssignedTo, Loc: c.Loc, Call: e, Graph: g}
			staticInterrupts(a, e)
			graphMembers(f, a, g)
			markModels(g)
			boundTools(a, g)
			f.AddAgent(a)
			compiled[g] = true
		}
	}
	// A builder returned uncompiled by the function that builds it is
	// compiled by its caller, possibly in another file: the graph is an
	// agent named after that function.
	for _, c := range ctors {
		g := graphs[c]
		if compiled[g] || c.Func == nil || c.Func.Name == "<module>" || len(g.Nodes) == 0 {
			continue
		}
		returned := false
		for _, r := range c.Func.ReturnExprs {
			if builderOf(graphs, r, 0) == g {
				returned = true
			}
		}
		if !returned {
			continue
		}
		a := &extract.Agent{Framework: extract.FrameworkLangGraph, Ctor: "StateGraph(uncompiled)", Name: c.Func.Name, Loc: c.Loc, Call: c.Expr, Graph: g,
			Extra: map[extract.ExtraKey]string{extract.ExtraBuilder: c.Func.Qual}}
		graphMembers(f, a, g)
		boundTools(a, g)
		f.AddAgent(a)
	}
}

// wrappedAgents drops the LangChain ReAct agents that an AgentExecutor of
// the file runs (AgentExecutor(agent=react, tools=[...])): the runnable only
// picks the next step, and the executor, an agent of its own, runs the
// tools.
func wrappedAgents(f *extract.File) {
	wrapped := map[*extract.Call]bool{}
	for _, a := range f.Agents {
		if a.Ctor != "AgentExecutor" || a.Call == nil {
			continue
		}
		if in := extract.Deref(a.Call.Arg(0, "agent")); in != nil && in.Call != nil {
			wrapped[in.Call] = true
		}
	}
	if len(wrapped) == 0 {
		return
	}
	kept := f.Agents[:0]
	for _, a := range f.Agents {
		if a.Framework == extract.FrameworkLangChain && a.Ctor == "create_react_agent" && a.Call != nil && wrapped[a.Call.Call] {
			continue
		}
		kept = append(kept, a)
	}
	f.Agents = kept
}

// compileElsewhere records compile() calls whose receiver is the result of
// a function imported from another file (build_graph().compile(...), or a
// variable holding it): that file may return an uncompiled builder, and
// what the compile sets (interrupts, checkpointer) belongs to its agent.
func compileElsewhere(f *extract.File, graphs map[*extract.Call]*extract.Graph) {
	for _, c := range f.Calls() {
		e := c.Expr
		if e.Method() != "compile" || builderOf(graphs, receiverOf(e), 0) != nil {
			continue
		}
		r := extract.Deref(receiverOf(e))
		if r == nil || r.Kind != extract.ExprCall || r.Call == nil || r.Call.HeadKind != extract.HeadImport {
			continue
		}
		probe := &extract.Agent{}
		staticInterrupts(probe, e)
		f.Compiles = append(f.Compiles, &extract.Compile{Builder: r, Approvals: probe.Approvals, Checkpoint: probe.Checkpoint, Loc: c.Loc})
	}
}

// derefAt is the value a name has where it is used: in its own scope, the
// last assignment before the use (graph = StateGraph(S); ...;
// graph = graph.compile() reads the builder, not the compiled graph); from
// an enclosing scope, its last assignment (a function runs after the module
// code around it).
func derefAt(e *extract.Expr) *extract.Expr {
	if e == nil || e.Kind != extract.ExprName || e.Scope == nil || strings.Contains(e.Name, ".") {
		return extract.Deref(e)
	}
	bs := e.Scope.Bindings[e.Name]
	if len(bs) == 0 {
		return extract.Deref(e)
	}
	at := e.Loc.Start.Byte
	for i := len(bs) - 1; i >= 0; i-- {
		b := bs[i]
		if b.Loc.Start.Byte > at {
			continue
		}
		if b.Value != nil && b.Value.Loc.Start.Byte <= at && at < b.Value.Loc.End.Byte {
			continue // the assignment whose value holds the use
		}
		switch b.Kind {
		case extract.BindAssign, extract.BindLoop:
			if b.Value == nil {
				return e
			}
			return b.Value
		case extract.BindAppend:
			continue
		}
		return e
	}
	return extract.Deref(e)
}

// within reports whether fn is outer or a function nested in it.
func within(fn, outer *extract.Func) bool {
	for ; fn != nil; fn = fn.Parent {
		if fn == outer {
			return true
		}
	}
	return false
}

// builderMethods are the StateGraph methods that return the builder.
var builderMethods = map[string]bool{"add_node": true, "add_edge": true, "add_sequence": true, "set_entry_point": true,
	"set_finish_point": true, "add_conditional_edges": true, "set_conditional_entry_point": true}

// receiverOf is the object a method call is made on: a name
// (builder.add_node) or an expression (StateGraph(S).add_node).
func receiverOf(e *extract.Expr) *extract.Expr {
	if e == nil || e.Kind != extract.ExprCall {
		return nil
	}
	if e.Recv != nil {
		return e.Recv
	}
	i := strings.LastIndexByte(e.Name, '.')
	if i <= 0 {
		return nil
	}
	return &extract.Expr{Kind: extract.ExprName, Name: e.Name[:i], Scope: e.Scope, Loc: e.Loc}
}

// builderOf is the graph builder an expression denotes: a StateGraph(...)
// call, a builder method called on one, a variable holding one, or a call
// of a function of the file that returns one.
func builderOf(graphs map[*extract.Call]*extract.Graph, e *extract.Expr, depth int) *extract.Graph {
	if e == nil || depth > 8 {
		return nil
	}
	switch e.Kind {
	case extract.ExprName:
		if d := derefAt(e); d != nil && d != e {
			return builderOf(graphs, d, depth+1)
		}
	case extract.ExprCall:
		if e.Call != nil {
			if g := graphs[e.Call]; g != nil {
				return g
			}
		}
		if builderMethods[e.Method()] {
			return builderOf(graphs, receiverOf(e), depth+1)
		}
		var fn *extract.Func
		switch {
		case e.Call != nil && e.Call.HeadKind == extract.HeadLocal && e.Recv == nil:
			fn = extract.FuncDef(e.Scope, e.Name)
		case e.Call != nil && e.Call.HeadKind == extract.HeadSelf && e.Call.Func != nil && e.Call.Func.ClassDef != nil:
			fn = e.Call.Func.ClassDef.Methods[extract.LastDot(e.Call.Qual)] // self.build_graph()
		}
		if fn != nil {
			for _, r := range fn.ReturnExprs {
				if g := builderOf(graphs, r, depth+1); g != nil {
					return g
				}
			}
		}
	}
	return nil
}

func agentName(e *extract.Expr, c *extract.Call, ctor string) string {
	if s, ok := extract.StrArg(e, -1, "name"); ok && s != "" {
		return s
	}
	if v := e.Kwarg("name"); v != nil {
		return computedName(v, c, ctor)
	}
	return enclosingName(c, ctor)
}

// staticInterrupts reads interrupt_before/interrupt_after and the checkpointer.
func staticInterrupts(a *extract.Agent, e *extract.Expr) {
	for _, kw := range []string{"interrupt_before", "interrupt_after"} {
		v := e.Kwarg(kw)
		if v == nil {
			continue
		}
		nodes := extract.Strings(v)
		if len(nodes) == 0 {
			continue
		}
		ap := &extract.Approval{Kind: kw, Loc: v.Loc, Nodes: nodes, After: kw == "interrupt_after", Expr: v}
		for _, n := range nodes {
			if n == "*" {
				ap.All = true
			}
		}
		a.Approvals = append(a.Approvals, ap)
	}
	if cp := e.Kwarg("checkpointer"); cp != nil && extract.Deref(cp).Kind != extract.ExprNone {
		a.Checkpoint = true
	}
}

// deepAgent reads create_deep_agent(model, tools, subagents=[...],
// interrupt_on={...}) (deepagents graph.py). The agent also has the
// filesystem, todo and task tools deepagents adds (catalog builtin_tools,
// attached by the workspace); `execute` only with a backend that may be a
// sandbox. Each declarative sub-agent ({"name", "tools", "interrupt_on"})
// is an agent the parent reaches through `task`: without its own tools it
// inherits the parent's, without its own interrupt_on the parent's.
// A compiled sub-agent ({"name", "runnable"}) is the runnable.
func deepAgent(f *extract.File, c *extract.Call) {
	e := c.Expr
	a := &extract.Agent{Framework: extract.FrameworkLangChain, Ctor: extract.LastDot(c.Qual), Loc: c.Loc, Call: e, Var: c.AssignedTo,
		Extra: map[extract.ExtraKey]string{extract.ExtraBuiltins: "create_deep_agent"}}
	a.Name = agentName(e, c, "create_deep_agent")
	tl := e.Kwarg("tools")
	if tl == nil && len(e.Args) > 0 && extract.Deref(e.Args[0]) != nil && extract.Deref(e.Args[0]).Kind == extract.ExprList {
		tl = e.Args[0] // deepagents < 0.2: create_deep_agent(tools, instructions, ...)
	} else if tl == nil {
		tl = e.Arg(1, "tools")
	}
	var own []extract.ToolRef
	if tl != nil {
		own = []extract.ToolRef{{Expr: tl}}
		a.Tools = append(a.Tools, own...)
	}
	a.Extra[extract.ExtraBackend] = backendKind(e.Kwarg("backend"), 0)
	var parentHITL *extract.Approval
	if on := e.Kwarg("interrupt_on"); on != nil {
		parentHITL = interruptOn(on, "create_deep_agent(interrupt_on=...)")
		a.Approvals = append(a.Approvals, parentHITL)
	}
	staticInterrupts(a, e)
	middleware(a, e.Kwarg("middleware"))
	var subs []*extract.Agent
	if specs, ok := subagentSpecs(e.Kwarg("subagents")); ok {
		for _, el := range specs {
			d := extract.Deref(el)
			if d != nil && d.Kind == extract.ExprCall && (d.Method() == "SubAgent" || d.Method() == "CompiledSubAgent") {
				d = kwargsDict(d) // SubAgent(name=..., tools=[...]): the TypedDict, spelled as a call
			}
			if d == nil || d.Kind != extract.ExprDict {
				if d != nil {
					a.SubAgents = append(a.SubAgents, d) // a SubAgent built elsewhere
				}
				continue
			}
			if dictGet(d, "graph_id") != nil {
				continue // an async sub-agent runs remotely, outside this tree
			}
			if r := dictGet(d, "runnable"); r != nil {
				a.SubAgents = append(a.SubAgents, r)
				continue
			}
			name, _ := extract.Deref(dictGet(d, "name")).StrValue()
			if name == "" {
				name = a.Name + ".subagent"
			}
			sub := &extract.Agent{Name: name, Framework: extract.FrameworkLangChain, Ctor: "deepagents.SubAgent", Loc: d.Loc, NameLoc: d.Loc,
				Extra: map[extract.ExtraKey]string{extract.ExtraBuiltins: "FilesystemMiddleware", extract.ExtraSubagentOf: a.Name}}
			sub.Extra[extract.ExtraBackend] = a.Extra[extract.ExtraBackend]
			if st := dictGet(d, "tools"); st != nil {
				sub.Tools = []extract.ToolRef{{Expr: st}}
			} else {
				sub.Tools = append([]extract.ToolRef(nil), own...)
			}
			if on := dictGet(d, "interrupt_on"); on != nil {
				sub.Approvals = append(sub.Approvals, interruptOn(on, name+" interrupt_on"))
			} else if parentHITL != nil {
				sub.Approvals = append(sub.Approvals, parentHITL)
			}
			middleware(sub, dictGet(d, "middleware"))
			subs = append(subs, sub)
		}
	}
	for _, s := range subs {
		f.AddAgent(s)
		a.Delegates = append(a.Delegates, s.ID)
	}
	f.AddAgent(a)
}

// subagentSpecs lists create_deep_agent's sub-agent specs: the elements of
// a list literal, or the dicts an in-tree helper of the file builds and
// returns (subagents=load_subagents(path): a dict per sub-agent, filled key
// by key, appended to the returned list). ok is false when neither reads.
func subagentSpecs(e *extract.Expr) ([]*extract.Expr, bool) {
	l := extract.Deref(e)
	if l == nil {
		return nil, false
	}
	if l.Kind == extract.ExprList {
		return l.Elems, true
	}
	if l.Kind != extract.ExprCall || l.Call == nil || l.Call.HeadKind != extract.HeadLocal || l.Recv != nil {
		return nil, false
	}
	fn := extract.FuncDef(l.Scope, l.Name)
	if fn == nil {
		return nil, false
	}
	var out []*extract.Expr
	for _, r := range fn.ReturnExprs {
		if r == nil {
			continue
		}
		if r.Kind == extract.ExprList {
			out = append(out, factoryDicts(fn, r.Elems)...)
			continue
		}
		if r.Kind != extract.ExprName || r.Scope != fn.Scope {
			continue
		}
		for _, b := range fn.Scope.Bindings[r.Name] {
			switch {
			case b.Kind == extract.BindAssign && b.Value != nil && b.Value.Kind == extract.ExprList:
				out = append(out, factoryDicts(fn, b.Value.Elems)...)
			case b.Kind == extract.BindAppend && b.Attr == "" && b.Value != nil && b.Value.Kind == extract.ExprList:
				out = append(out, factoryDicts(fn, b.Value.Elems)...)
			}
		}
	}
	return out, len(out) > 0
}

// factoryDicts resolves the elements a helper puts into its list: a local
// name bound to a dict literal becomes that dict plus the keys the body
// assigns to it later (d["tools"] = [...]).
func factoryDicts(fn *extract.Func, elems []*extract.Expr) []*extract.Expr {
	var out []*extract.Expr
	for _, el := range elems {
		if el == nil || el.Kind != extract.ExprName || el.Scope != fn.Scope {
			out = append(out, el)
			continue
		}
		d := extract.Deref(el)
		if d == nil || d.Kind != extract.ExprDict {
			out = append(out, el)
			continue
		}
		m := &extract.Expr{Kind: extract.ExprDict, Loc: d.Loc, Scope: d.Scope,
			Keys: append([]*extract.Expr(nil), d.Keys...), Elems: append([]*extract.Expr(nil), d.Elems...)}
		for _, it := range fn.Items {
			if it.Name == el.Name && !it.AnyKey {
				m.Keys = append(m.Keys, &extract.Expr{Kind: extract.ExprStr, Str: it.Key, Loc: it.Loc, Scope: fn.Scope})
				m.Elems = append(m.Elems, it.Value)
			}
		}
		out = append(out, m)
	}
	return out
}

// backendKind says what a deepagents backend's file tools touch: "state"
// (no backend, StateBackend, StoreBackend: files live in the agent's own
// state or store), "disk" (FilesystemBackend: the real files, no shell) or
// "sandbox" (a sandbox, a local shell, or a backend acg cannot read: it may
// run commands, fail closed). A CompositeBackend is its widest route.
func backendKind(b *extract.Expr, depth int) string {
	b = extract.Deref(b)
	if b == nil || b.Kind == extract.ExprNone {
		return "state"
	}
	if b.Kind == extract.ExprCall && depth < 4 {
		switch b.Method() {
		case "StateBackend", "StoreBackend":
			return "state"
		case "FilesystemBackend", "ContextHubBackend":
			return "disk"
		case "CompositeBackend":
			kind := backendKind(b.Arg(0, "default"), depth+1)
			if r := extract.Deref(b.Arg(1, "routes")); r != nil && r.Kind == extract.ExprDict {
				for _, v := range r.Elems {
					if k := backendKind(v, depth+1); k == "sandbox" || k == "disk" && kind == "state" {
						kind = k
					}
				}
			} else if r != nil {
				return "sandbox"
			}
			return kind
		}
	}
	return "sandbox"
}

// kwargsDict turns a TypedDict constructor call into the dict it builds.
func kwargsDict(c *extract.Expr) *extract.Expr {
	d := &extract.Expr{Kind: extract.ExprDict, Loc: c.Loc, Scope: c.Scope}
	for _, k := range c.Kw {
		d.Keys = append(d.Keys, &extract.Expr{Kind: extract.ExprStr, Str: k.Name, Loc: c.Loc, Scope: c.Scope})
		d.Elems = append(d.Elems, k.Value)
	}
	return d
}

// dictGet returns the value of a string key of a dict literal.
func dictGet(d *extract.Expr, key string) *extract.Expr {
	if d == nil || d.Kind != extract.ExprDict {
		return nil
	}
	for i, k := range d.Keys {
		if s, ok := k.StrValue(); ok && s == key && i < len(d.Elems) {
			return d.Elems[i]
		}
	}
	return nil
}

// interruptOn reads an interrupt_on mapping: tool name -> True, False or a
// config dict ({"allowed_decisions": [...]}). A name whose value is truthy
// or a dict is gated; the approval is that of HumanInTheLoopMiddleware,
// which is what deepagents builds from it.
func interruptOn(on *extract.Expr, detail string) *extract.Approval {
	ap := &extract.Approval{Kind: "hitl_middleware", Loc: on.Loc, Expr: on, Detail: detail}
	d := extract.Deref(on)
	if d == nil || d.Kind != extract.ExprDict {
		return ap
	}
	for i, k := range d.Keys {
		name, ok := k.StrValue()
		if !ok || i >= len(d.Elems) {
			continue
		}
		v := extract.Deref(d.Elems[i])
		// A dict, True, or a config object (InterruptOnConfig(...)) asks.
		if t, known := v.Truthy(); v != nil && (v.Kind == extract.ExprDict || v.Kind == extract.ExprCall || (known && t)) {
			ap.Tools = append(ap.Tools, name)
		}
	}
	return ap
}

// middleware reads create_agent's middleware list: HumanInTheLoopMiddleware
// gates the tools its interrupt_on names; some middleware adds tools.
func middleware(a *extract.Agent, list *extract.Expr) {
	list = extract.Deref(list)
	if list == nil {
		return
	}
	for _, m := range list.Elems {
		m = extract.Deref(m)
		if m == nil || m.Kind != extract.ExprCall {
			continue
		}
		q := extract.QualOf(m)
		switch {
		case extract.QualIs(q, "HumanInTheLoopMiddleware", "langchain"):
			ap := &extract.Approval{Kind: "hitl_middleware", Loc: m.Loc, Expr: m}
			if on := m.Arg(0, "interrupt_on"); on != nil {
				ap.Tools = interruptOn(on, "").Tools
			}
			a.Approvals = append(a.Approvals, ap)
		case extract.QualIs(q, "ShellToolMiddleware", "langchain"), extract.QualIs(q, "FilesystemFileSearchMiddleware", "langchain"):
			a.Tools = append(a.Tools, extract.ToolRef{Expr: &extract.Expr{Kind: extract.ExprList, Elems: []*extract.Expr{m}, Scope: m.Scope, Loc: m.Loc}, Node: "tools"})
		}
	}
}

// addNode records builder.add_node("name", action) or add_node(fn).
func addNode(g *extract.Graph, e *extract.Expr) string {
	var name string
	var action *extract.Expr
	if s, ok := e.Arg(0, "node").StrValue(); ok {
		name, action = s, e.Arg(1, "action")
	} else {
		action = e.Arg(0, "node")
		if action != nil {
			name = extract.LastDot(action.Name)
			if action.Kind == extract.ExprCall {
				name = "" // add_node(SomeRunnable()) names itself; unknown here
			}
		}
	}
	if name == "" {
		return ""
	}
	g.Nodes = append(g.Nodes, &extract.GraphNode{Name: name, Action: action, Loc: e.Loc})
	return name
}

// routerTargets reads where a conditional edge may go: the path_map, the
// prebuilt tools_condition, or the string literals a local router returns.
func routerTargets(path, pathMap *extract.Expr) ([]string, bool) {
	if pm := extract.Deref(pathMap); pm != nil {
		switch pm.Kind {
		case extract.ExprDict:
			var out []string
			for _, v := range pm.Elems {
				out = append(out, extract.GraphConst(extract.Deref(v)))
			}
			return out, true
		case extract.ExprList:
			return extract.Strings(pm), true
		}
	}
	if path == nil {
		return nil, false
	}
	if extract.QualIs(extract.QualOf(path), "tools_condition", "langgraph") {
		return []string{"tools", "__end__"}, true
	}
	if path.Kind == extract.ExprName {
		if fn := extract.FuncDef(path.Scope, path.Name); fn != nil {
			return literalTargets(fn)
		}
	}
	return nil, false
}

// literalTargets reads a router's targets from its return annotation
// (Literal["a", "b"]) or its returned string literals.
func literalTargets(fn *extract.Func) ([]string, bool) {
	var out []string
	if i := strings.Index(fn.ReturnType, "Literal["); i >= 0 {
		// The annotation may span lines and end in a trailing comma:
		// Literal[\n "a",\n "b",\n]. Only what stands before the closing
		// bracket names targets.
		body := fn.ReturnType[i+len("Literal["):]
		if j := strings.IndexByte(body, ']'); j >= 0 {
			body = body[:j]
		}
		for _, part := range strings.Split(body, ",") {
			part = strings.Trim(part, " \t\r\n\"'")
			if part != "" {
				out = append(out, mapEnd(part))
			}
		}
		return out, len(out) > 0
	}
	known := len(fn.ReturnExprs) > 0
	for _, r := range fn.ReturnExprs {
		r = extract.Deref(r)
		if s, ok := r.StrValue(); ok {
			out = append(out, s)
		} else if r != nil && r.Kind == extract.ExprName && (r.Name == "END" || r.Name == "START") {
			out = append(out, extract.GraphConst(r))
		} else {
			known = false
		}
	}
	return out, known
}

func mapEnd(s string) string {
	if s == "END" {
		return "__end__"
	}
	return s
}

// graphMembers turns the nodes of a compiled graph into the agent's tools
// and sub-agents: ToolNode([...]) nodes hold tools, function nodes are
// pseudo-tools (they run code with the graph's state), other nodes may be
// compiled sub-graphs or agents.
func graphMembers(f *extract.File, a *extract.Agent, g *extract.Graph) {
	for _, n := range g.Nodes {
		act := extract.Deref(n.Action)
		if act == nil {
			continue
		}
		switch {
		case act.Kind == extract.ExprCall && extract.QualIs(extract.QualOf(act), "ToolNode", "langgraph"):
			if tl := act.Arg(0, "tools"); tl != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: tl, Node: n.Name})
			}
		case act.Kind == extract.ExprName:
			if fn := extract.FuncDef(act.Scope, act.Name); fn != nil {
				t := &extract.Tool{Name: n.Name, Symbol: a.Name + "." + n.Name, Framework: extract.FrameworkLangGraph, Kind: extract.ToolNode, Func: fn,
					Loc: fn.Loc, NameLoc: fn.NameLoc}
				f.AddTool(t)
				a.Tools = append(a.Tools, extract.ToolRef{Tool: t, Node: n.Name})
				commandEdges(g, n.Name, fn)
				// A node that builds an agent and runs it
				// (create_react_agent(...) inside the node function) runs
				// that agent as a step of the graph.
				for _, inner := range f.Agents {
					if inner != a && inner.Call != nil && inner.Call.Call != nil && within(inner.Call.Call.Func, fn) {
						a.Delegates = append(a.Delegates, inner.ID)
					}
				}
				continue
			}
			// An imported function, a compiled graph or an agent: resolved later.
			a.SubAgents = append(a.SubAgents, act)
			a.Tools = append(a.Tools, extract.ToolRef{Expr: &extract.Expr{Kind: extract.ExprList, Elems: []*extract.Expr{act}, Scope: act.Scope, Loc: act.Loc}, Node: n.Name})
		case act.Kind == extract.ExprCall:
			a.SubAgents = append(a.SubAgents, act)
		}
	}
}

// boundTools attaches the tools a graph's model is offered with
// bind_tools when no ToolNode runs them: hand-written graphs dispatch them
// by name in a node of their own (tools_by_name[call["name"]].invoke(...)).
// They run in that node when one is recognisable.
func boundTools(a *extract.Agent, g *extract.Graph) {
	for _, r := range a.Tools {
		if r.Expr != nil && r.Node != "" && a.Graph.Node(r.Node) != nil {
			if act := extract.Deref(a.Graph.Node(r.Node).Action); act != nil && act.Kind == extract.ExprCall && extract.QualIs(extract.QualOf(act), "ToolNode", "langgraph") {
				return
			}
		}
	}
	var lists []*extract.Expr
	executor := ""
	for _, n := range g.Nodes {
		fn := n.Func()
		if fn == nil {
			continue
		}
		for _, c := range fn.Calls {
			if c.Expr == nil {
				continue
			}
			if l := bindToolsArg(c.Expr); l != nil {
				lists = append(lists, l)
			}
			// write_email.invoke(...) on a tool of the tree is a HeadLocal call.
			if m := extract.LastDot(c.Expr.Name); (c.HeadKind == extract.HeadData || c.HeadKind == extract.HeadLocal) && (m == "invoke" || m == "ainvoke") && c.Expr.Head() != "" {
				if executor == "" || executor == n.Name {
					executor = n.Name
				} else {
					executor = "\x00" // several: unknown
				}
			}
		}
	}
	if executor == "\x00" {
		executor = ""
	}
	for _, l := range lists {
		a.Tools = append(a.Tools, extract.ToolRef{Expr: l, Node: executor})
	}
}

// Func is the function of this file that the node runs (a node added as
// a plain function name), or nil.
// markModels marks the nodes that call a chat model: with its tools bound
// (llm.bind_tools(tools).invoke), or a chat model object's invoke/stream.
func markModels(g *extract.Graph) {
	for _, n := range g.Nodes {
		fn := n.Func()
		if fn == nil {
			continue
		}
		for _, c := range fn.Calls {
			if c.Expr == nil {
				continue
			}
			if bindToolsArg(c.Expr) != nil || isModelCall(c) {
				n.Model = true
				break
			}
		}
	}
}

// isModelCall recognises a call of a chat model object: ChatOpenAI(...),
// init_chat_model(...) and the like, invoked or streamed.
func isModelCall(c *extract.Call) bool {
	switch c.Method() {
	case "invoke", "ainvoke", "stream", "astream", "batch", "abatch":
	default:
		return false
	}
	ctor, _, ok := strings.Cut(c.Qual, "().")
	if !ok {
		return false
	}
	last := extract.LastDot(ctor)
	return last == "init_chat_model" || strings.HasPrefix(last, "Chat") && len(last) > 4
}

// bindToolsArg returns the tool list of model.bind_tools(...) behind a call
// such as llm_with_tools.invoke(...) or llm.bind_tools(tools).invoke(...).
func bindToolsArg(e *extract.Expr) *extract.Expr {
	for i := 0; i < 4 && e != nil; i++ {
		if e.Kind == extract.ExprCall && e.Method() == "bind_tools" {
			return e.Arg(0, "tools")
		}
		switch {
		case e.Recv != nil:
			e = e.Recv
		case e.Kind == extract.ExprCall && e.Head() != "" && e.Head() != e.Name:
			e = extract.Deref(&extract.Expr{Kind: extract.ExprName, Name: e.Head(), Scope: e.Scope})
		default:
			return nil
		}
	}
	return nil
}

// commandEdges adds the edges a node makes by returning Command(goto=...):
// the targets its Command[Literal[...]] annotation declares (LangGraph
// draws the graph from them), else the literal goto, else every literal
// the goto variable is ever given. A goto computed any other way leaves
// the routing open.
func commandEdges(g *extract.Graph, node string, fn *extract.Func) {
	declared, annotated := []string(nil), false
	if strings.Contains(fn.ReturnType, "Command[") && strings.Contains(fn.ReturnType, "Literal[") {
		declared, annotated = literalTargets(fn)
	}
	for _, c := range fn.Calls {
		if c.Expr == nil || !extract.QualIs(c.Qual, "Command", "langgraph") {
			continue
		}
		gt := c.Expr.Kwarg("goto")
		if gt == nil {
			continue
		}
		var ts []string
		switch {
		case annotated:
			ts = declared
		case gt.Kind == extract.ExprName && !strings.Contains(gt.Name, ".") && gt.Name != "END" && gt.Name != "START" && gt.Scope != nil:
			ts = gotoValues(gt)
		default:
			ts = extract.Strings(gt)
		}
		if len(ts) == 0 {
			g.Open = true // a computed goto
		}
		for _, t := range ts {
			g.Edges = append(g.Edges, extract.GraphEdge{From: node, To: t})
		}
	}
}

// gotoValues returns every literal a local goto variable is assigned, or
// nil when one assignment is not a literal.
func gotoValues(v *extract.Expr) []string {
	bs := v.Scope.Bindings[v.Name]
	if len(bs) == 0 {
		return extract.Strings(v)
	}
	var out []string
	for _, b := range bs {
		if b.Kind != extract.BindAssign || b.Value == nil {
			return nil
		}
		e := b.Value
		switch {
		case e.Kind == extract.ExprStr:
			out = append(out, e.Str)
		case e.Kind == extract.ExprName && (e.Name == "END" || e.Name == "START"):
			out = append(out, extract.GraphConst(e))
		default:
			return nil
		}
	}
	return out
}
