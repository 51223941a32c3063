package resolve

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// builder resolves the facts of every file into the capability graph.
type builder struct {
	ix      *Index
	an      *effects.Analyzer
	tools   map[string]*capgraph.Tool
	order   []string
	agents  map[*extract.Agent]*capgraph.Agent
	byCall  map[*extract.Call]*extract.Agent
	uses    []capgraph.Use
	links   []capgraph.Link
	servers []*capgraph.Server
	srv     *servers // MCP servers, indexed on first use (servers.go)
	// compiled holds what compile() calls in other files set on the agent
	// of a builder returned uncompiled (extract.Compile).
	compiled map[*extract.Agent][]*extract.Compile
	// fr binds the parameters of the in-tree function whose result is
	// being resolved to the arguments of its call (factories.go).
	fr *frame
	// inputOnly says, for each function node of a hand-built graph, which
	// state fields only the graph's input fills (state.go).
	inputOnly map[*extract.Tool]func(string) bool
}

// member is what an element of a tool list turns out to be.
type member struct {
	tool  *capgraph.Tool
	agent *extract.Agent
	loc   extract.Loc
	// gates are approvals the list puts in front of this member (a tool
	// wrapped by an authorization wrapper that asks the user: wrappers.go).
	gates []*extract.Approval
}

func BuildGraph(files []*extract.File) *capgraph.Graph {
	return BuildParts(NewIndex(files), files).Graph()
}

// parts are what buildParts resolved, before they become one graph: the
// language server builds closed groups of files separately and merges them
// (components.go).
type Parts struct {
	Agents  []*capgraph.Agent
	Tools   []*capgraph.Tool
	Servers []*capgraph.Server
	Uses    []capgraph.Use
	Links   []capgraph.Link
}

func (p *Parts) Graph() *capgraph.Graph {
	return capgraph.Build(p.Agents, p.Tools, p.Servers, p.Uses, p.Links)
}

// buildParts resolves the agents and tools of files. ix may index more files
// than those: names resolve against the whole workspace.
func BuildParts(ix *Index, files []*extract.File) *Parts {
	b := &builder{ix: ix, an: effects.NewAnalyzer(resolver{ix}), tools: map[string]*capgraph.Tool{},
		agents: map[*extract.Agent]*capgraph.Agent{}, byCall: map[*extract.Call]*extract.Agent{}}
	for _, f := range files {
		for _, a := range f.Agents {
			b.agents[a] = &capgraph.Agent{ID: a.ID, Name: a.Name, Framework: a.Framework, Loc: agentLoc(a), Src: a}
			if a.Call != nil && a.Call.Call != nil {
				b.byCall[a.Call.Call] = a
			}
		}
	}
	b.inputOnly = b.nodeFields(files)
	for _, f := range files {
		for _, t := range f.Tools {
			b.addTool(t)
		}
	}
	b.joinCompiles(files)
	// Agents-as-tools first: a sub-agent list may name one (resolveAgent).
	for _, f := range files {
		for _, t := range f.Tools {
			if t.Kind == extract.ToolAgent && t.AgentRef != nil {
				for _, m := range b.members(t.AgentRef, 0) {
					if m.agent != nil {
						b.tools[t.ID].Agent = m.agent.ID
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, a := range f.Agents {
			b.resolveAgent(f, a)
		}
	}
	b.agentToolsInBodies(files)
	b.agentRunsInBodies()
	b.resolveSources(files)
	var agents []*capgraph.Agent
	for _, a := range b.agents {
		agents = append(agents, a)
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i].ID < agents[j].ID })
	tools := make([]*capgraph.Tool, 0, len(b.order))
	for _, id := range b.order {
		tools = append(tools, b.tools[id])
	}
	return &Parts{Agents: agents, Tools: tools, Servers: b.servers, Uses: b.uses, Links: b.links}
}

// agentLoc is where an agent is reported: its constructor call, or for a
// compiled graph the compile call.
func agentLoc(a *extract.Agent) extract.Loc {
	if a.Loc.Valid() {
		return a.Loc
	}
	return a.NameLoc
}

func (b *builder) addTool(t *extract.Tool) *capgraph.Tool {
	if ct, ok := b.tools[t.ID]; ok {
		return ct
	}
	var eff *effects.Effects
	if q := b.inputOnly[t]; q != nil {
		eff = b.an.Node(t, q)
	} else {
		eff = b.an.Tool(t)
	}
	ct := &capgraph.Tool{ID: t.ID, Name: t.Name, Framework: t.Framework, Kind: t.Kind, Loc: t.NameLoc, Src: t,
		Effects: eff, Approvals: t.Approvals, Server: t.Server}
	if !ct.Loc.Valid() {
		ct.Loc = t.Loc
	}
	b.tools[t.ID] = ct
	b.order = append(b.order, t.ID)
	return ct
}

// active reports whether the model may call a tool of the agent: every
// tool, unless the agent names the active ones (by the key of its tools
// object, else the tool's name). A tool acg could not follow has no name
// to test and stays (fail closed).
func active(a *extract.Agent, ref extract.ToolRef, t *capgraph.Tool) bool {
	if a.ActiveTools == nil || t.Framework == extract.FrameworkUnknown {
		return true
	}
	name := ref.Key
	if name == "" {
		name = t.Name
	}
	return slices.Contains(a.ActiveTools, name)
}

func (b *builder) resolveAgent(f *extract.File, a *extract.Agent) {
	ca := b.agents[a]
	refs := append([]extract.ToolRef(nil), a.Tools...)
	handoffs := append([]*extract.Expr(nil), a.Handoffs...)
	// Lists grown after construction: agent.tools.append(t), agent.handoffs.extend([...]).
	// A clone copies its base's lists as they were when it was made.
	type grown struct {
		v      string
		before int // only appends before this byte offset (0: all)
	}
	var vars []grown
	if a.Var != "" {
		vars = append(vars, grown{a.Var, 0})
	}
	if base := a.Extra[extract.ExtraCloneOf]; base != "" {
		vars = append(vars, grown{base, int(a.Loc.Start.Byte)})
	}
	for _, g := range vars {
		for _, fn := range f.Funcs {
			for _, bd := range fn.Scope.Bindings[g.v] {
				if bd.Kind != extract.BindAppend || (g.before > 0 && int(bd.Loc.Start.Byte) > g.before) {
					continue
				}
				switch bd.Attr {
				case "tools":
					refs = append(refs, extract.ToolRef{Expr: bd.Value})
				case "handoffs":
					handoffs = append(handoffs, bd.Value)
				}
			}
		}
	}
	for _, ref := range refs {
		var ms []member
		switch {
		case ref.Tool != nil:
			ms = []member{{tool: b.addTool(ref.Tool), loc: ref.Tool.Loc}}
			if ref.Tool.Kind == extract.ToolNode && ref.Tool.Func != nil && a.Graph != nil {
				// A node function of this file that runs a crew of the tree
				// (agents it builds itself are the extractor's Delegates).
				for _, inner := range b.crewAgentsRunIn(ref.Tool.Func) {
					if inner != a {
						b.links = append(b.links, capgraph.Link{From: a.ID, To: inner.ID, Kind: capgraph.EdgeSubAgent, Loc: ref.Tool.Loc})
					}
				}
			}
		case b.methodNode(f, a, ref) != nil:
			t := b.methodNode(f, a, ref)
			ms = []member{{tool: b.addTool(t), loc: ref.Expr.Loc}}
		default:
			ms = b.members(ref.Expr, 0)
		}
		for _, m := range ms {
			switch {
			case m.agent != nil:
				b.links = append(b.links, capgraph.Link{From: a.ID, To: m.agent.ID, Kind: capgraph.EdgeSubAgent, Loc: m.loc})
			case m.tool != nil && !active(a, ref, m.tool):
				// Not among the names the model may call (activeTools).
			case m.tool != nil:
				b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: m.tool.ID, Node: ref.Node, Loc: m.loc,
					Gates: append(b.useGates(f, a, m.tool, ref.Node, ref.Key), m.gates...)})
			}
		}
	}
	for _, h := range handoffs {
		for _, m := range b.members(h, 0) {
			if m.agent != nil {
				b.links = append(b.links, capgraph.Link{From: a.ID, To: m.agent.ID, Kind: capgraph.EdgeHandoff, Loc: m.loc})
			}
		}
	}
	for _, s := range a.SubAgents {
		if s != nil && s.Kind == extract.ExprName && s.Scope != nil && a.Graph != nil {
			fn := b.ix.boundMethod(s)
			if fn == nil && (s.Recv != nil || !strings.Contains(s.Name, ".")) {
				// EmailFilterCrew().kickoff, or a node function imported
				// from another file (methodNode reads it as a node).
				fn = b.ix.funcOf(s)
			}
			if fn != nil {
				// A node given as a bound method (methodNode): no agent
				// itself, but it may build and run one.
				for _, inner := range b.agentsBuiltIn(fn) {
					if inner != a {
						b.links = append(b.links, capgraph.Link{From: a.ID, To: inner.ID, Kind: capgraph.EdgeSubAgent, Loc: s.Loc})
					}
				}
				continue
			}
		}
		for _, m := range b.members(s, 0) {
			switch {
			case m.agent != nil:
				b.links = append(b.links, capgraph.Link{From: a.ID, To: m.agent.ID, Kind: capgraph.EdgeSubAgent, Loc: m.loc})
			case m.tool != nil && m.tool.Agent != "":
				// A wrapper that stands for its agent (smolagents'
				// ManagedAgent(agent=…)): that agent is the sub-agent.
				b.links = append(b.links, capgraph.Link{From: a.ID, To: m.tool.Agent, Kind: capgraph.EdgeSubAgent, Loc: m.loc})
			case m.tool != nil && m.tool.Kind == extract.ToolPrebuilt && a.Graph == nil:
				// A sub-agent acg cannot follow (built outside the tree, or
				// not readable) is one it must assume can do anything (fail
				// closed), never one that is not there. A graph's entries
				// are its nodes, which its tool list already holds with
				// their gates (interrupt_before).
				b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: m.tool.ID, Loc: m.loc})
			case m.tool != nil && m.tool.Src != nil && m.tool.Src.Func != nil:
				// A node function of another file that builds an agent and
				// runs it (create_react_agent(...) inside the node).
				for _, inner := range b.agentsBuiltIn(m.tool.Src.Func) {
					if inner != a {
						b.links = append(b.links, capgraph.Link{From: a.ID, To: inner.ID, Kind: capgraph.EdgeSubAgent, Loc: m.loc})
					}
				}
			}
		}
	}
	b.registryDispatch(f, a, ca)
	for _, t := range a.Direct {
		ct := b.addTool(t)
		b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: ct.ID, Loc: t.Loc, Gates: b.useGates(f, a, ct, "", "")})
	}
	for _, d := range a.Delegates {
		b.links = append(b.links, capgraph.Link{From: a.ID, To: d, Kind: capgraph.EdgeSubAgent, Loc: a.Loc})
	}
	if prov := a.Extra[extract.ExtraBuiltins]; prov != "" {
		b.builtinTools(f, a, prov)
	}
}

// registryDispatch attaches the tools a graph node runs by name through a
// registry of the tree (tools_by_name[call["name"]].invoke(call["args"])
// with tools_by_name = {t.name: t for t in tools}, here or imported): the
// node runs every tool of the registry, so the agent uses each of them in
// that node. A node whose body always asks a human first gates them.
func (b *builder) registryDispatch(f *extract.File, a *extract.Agent, ca *capgraph.Agent) {
	if a.Graph == nil {
		return
	}
	for _, n := range a.Graph.Nodes {
		fn := b.ix.funcOf(n.Action)
		if fn == nil {
			continue
		}
		seen := map[string]bool{}
		for _, c := range fn.Calls {
			reg := b.ix.registryOf(c)
			if reg == nil || seen[reg.Name] {
				continue
			}
			seen[reg.Name] = true
			for _, m := range b.members(reg, 0) {
				if m.tool == nil {
					continue
				}
				gates := b.useGates(f, a, m.tool, n.Name, "")
				if fn.AlwaysGates && len(fn.Gates) > 0 {
					gates = append(gates, &extract.Approval{Kind: "interrupt", Loc: fn.Gates[0].Loc, Nodes: []string{n.Name},
						Detail: "graph node " + n.Name + " asks a human before it invokes any tool"})
				}
				b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: m.tool.ID, Node: n.Name, Loc: c.Loc, Gates: gates})
			}
		}
	}
}

// registryOf is the registry a call runs a tool from by name
// (registry[key].invoke(...)), or passes such an entry to a function of the
// tree that runs it (execute_tool_safely(tools_by_name[name], args), whose
// body calls tool.ainvoke(args)); nil otherwise.
func (ix *Index) registryOf(c *extract.Call) *extract.Expr {
	if reg := registryOf(c); reg != nil {
		return reg
	}
	if c.Expr == nil || c.HeadKind == extract.HeadData {
		return nil
	}
	fn := ix.callee(c)
	if fn == nil || fn == noCode {
		return nil
	}
	for i, a := range c.Expr.Args {
		reg := registryEntry(a)
		if reg == nil || i >= len(fn.Params) {
			continue
		}
		p := fn.Params[i].Name
		for _, inner := range fn.Calls {
			if inner.HeadKind == extract.HeadData && inner.Expr != nil && inner.Expr.Recv == nil && runMethod(inner.Method()) &&
				inner.Expr.Name == p+"."+inner.Method() {
				return reg
			}
		}
	}
	return nil
}

func runMethod(m string) bool {
	switch m {
	case "invoke", "ainvoke", "run", "arun":
		return true
	}
	return false
}

func registryOf(c *extract.Call) *extract.Expr {
	if c.HeadKind != extract.HeadData || c.Expr == nil || c.Expr.Recv == nil || !runMethod(c.Method()) {
		return nil
	}
	return registryEntry(c.Expr.Recv)
}

// registryEntry is the registry of an expression registry[key] whose key
// is not a literal (the model's choice), or nil.
func registryEntry(r *extract.Expr) *extract.Expr {
	if r == nil || r.Kind != extract.ExprSubscript || len(r.Elems) != 2 || r.Elems[0] == nil {
		return nil
	}
	reg := r.Elems[0]
	if reg.Kind != extract.ExprName || strings.Contains(reg.Name, ".") || reg.Scope == nil {
		return nil
	}
	if k := r.Elems[1]; k != nil && (k.Kind == extract.ExprStr || k.Kind == extract.ExprNum) {
		return nil // one fixed entry, not a dispatch by the model's choice
	}
	return reg
}

// methodNode is the node tool of a graph node given as a bound method of
// an in-tree class instance (nodes = Nodes(); add_node("check",
// nodes.check_email)): the method's code, read as a node function like
// the file's own (extract graphMembers). nil for anything else.
func (b *builder) methodNode(f *extract.File, a *extract.Agent, ref extract.ToolRef) *extract.Tool {
	if ref.Node == "" || a.Graph == nil || ref.Expr == nil || ref.Expr.Kind != extract.ExprList || len(ref.Expr.Elems) != 1 {
		return nil
	}
	el := ref.Expr.Elems[0]
	if el == nil || el.Kind != extract.ExprName {
		return nil
	}
	if !strings.Contains(el.Name, ".") {
		// A node function imported from another file (add_node(rewrite)
		// with `from .rewrite import rewrite`): read as a node, as the
		// file's own node functions are (extract graphMembers), unless it
		// is a declared tool.
		fn := b.ix.funcOf(el)
		if fn == nil || fn.Loc.File == f.Path || fn.Name == "<module>" {
			return nil
		}
		if df := b.ix.byPath[fn.Loc.File]; df == nil || df.ToolBySymbol(fn.Name) != nil {
			return nil
		}
		id := f.Path + "#" + a.Name + "." + ref.Node
		if ct, ok := b.tools[id]; ok && ct.Src != nil {
			return ct.Src
		}
		return &extract.Tool{ID: id, Name: ref.Node, Symbol: a.Name + "." + ref.Node, Framework: "langgraph",
			Kind: extract.ToolNode, Func: fn, Loc: fn.Loc, NameLoc: fn.NameLoc}
	}
	// nodes.check_email, or EmailFilterCrew().kickoff: a method of an
	// instance built in place.
	fn := b.ix.funcOf(el)
	if _, m, ok := strings.Cut(el.Name, "."); ok && el.Recv == nil && !strings.Contains(m, ".") {
		fn = b.ix.boundMethod(el)
	}
	if fn == nil {
		return nil
	}
	id := f.Path + "#" + a.Name + "." + ref.Node
	if ct, ok := b.tools[id]; ok && ct.Src != nil {
		return ct.Src
	}
	return &extract.Tool{ID: id, Name: ref.Node, Symbol: a.Name + "." + ref.Node, Framework: extract.FrameworkLangGraph,
		Kind: extract.ToolNode, Func: fn, Loc: fn.Loc, NameLoc: fn.NameLoc}
}

// joinCompiles joins each compile() of a builder made in another file to
// the agent of that builder: the function the call runs, when it returns
// an uncompiled graph builder (extract: Extra[extract.ExtraBuilder]).
func (b *builder) joinCompiles(files []*extract.File) {
	byBuilder := map[*extract.Func]*extract.Agent{}
	for a := range b.agents {
		if a.Extra[extract.ExtraBuilder] == "" || a.Call == nil || a.Call.Call == nil || a.Call.Call.Func == nil {
			continue
		}
		byBuilder[a.Call.Call.Func] = a
	}
	if len(byBuilder) == 0 {
		return
	}
	for _, f := range files {
		for _, c := range f.Compiles {
			if c.Builder == nil || c.Builder.Call == nil {
				continue
			}
			if a := byBuilder[b.ix.callee(c.Builder.Call)]; a != nil {
				if b.compiled == nil {
					b.compiled = map[*extract.Agent][]*extract.Compile{}
				}
				b.compiled[a] = append(b.compiled[a], c)
			}
		}
	}
}

// builtinTools gives an agent the tools its factory adds without the code
// naming them (catalog builtin_tools: create_deep_agent's files, todos and
// task). The file tools of a deepagents backend that keeps files in the
// agent's own state touch nothing outside it, so they are left out; the
// shell tool, which needs a sandbox backend, is added only when the agent
// may have one.
func (b *builder) builtinTools(f *extract.File, a *extract.Agent, provider string) {
	p := b.an.Catalog.Builtin(provider)
	if p == nil {
		return
	}
	ca := b.agents[a]
	backend := a.Extra[extract.ExtraBackend]
	for _, ct := range p.Tools {
		switch {
		case ct.Name == "execute" && backend != "sandbox":
			continue
		case deepFileTools[ct.Name] && backend == "state":
			continue
		}
		t := &extract.Tool{ID: f.Path + "#" + provider + "." + ct.Name, Name: ct.Name, Framework: a.Framework,
			Kind: extract.ToolBuiltin, Loc: a.Loc, NameLoc: a.Loc}
		node := b.addResolved(t, ct.EffectsOf("catalog: built-in tool of "+provider))
		b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: node.ID, Loc: a.Loc, Gates: b.useGates(f, a, node, "", "")})
	}
}

// agentToolsInBodies links a function tool to the agent it runs through an
// agent-as-tool built in its body (ADK's call_db_agent: AgentTool(agent=
// db_agent).run_async(...)): the tool runs that agent, so the agent's
// tools are in the reach of every agent using the function.
func (b *builder) agentToolsInBodies(files []*extract.File) {
	built := map[*extract.Func][]*extract.Tool{}
	for _, f := range files {
		for _, t := range f.Tools {
			if t.Kind == extract.ToolAgent && t.AgentRef != nil && t.Ctor != nil && t.Ctor.Call != nil && t.Ctor.Call.Func != nil {
				built[t.Ctor.Call.Func] = append(built[t.Ctor.Call.Func], t)
			}
		}
	}
	if len(built) == 0 {
		return
	}
	for _, ct := range b.tools {
		if ct.Agent != "" || ct.Src == nil || ct.Src.Func == nil {
			continue
		}
		for _, t := range built[ct.Src.Func] {
			if at := b.tools[t.ID]; at != nil && at.Agent != "" {
				ct.Agent = at.Agent
				break
			}
		}
	}
}

// agentsBuiltIn are the agents whose constructor runs in fn or in a
// function nested in it, by id.
func (b *builder) agentsBuiltIn(fn *extract.Func) []*extract.Agent {
	var out []*extract.Agent
	for a := range b.agents {
		if a.Call == nil || a.Call.Call == nil || a.Call.Call.Func == nil {
			continue
		}
		in := a.Call.Call.Func
		if in == fn || in.Loc.File == fn.Loc.File && fn.Name != "<module>" && strings.HasPrefix(in.Qual, fn.Qual+".") {
			out = append(out, a)
		}
	}
	out = append(out, b.crewAgentsRunIn(fn)...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// crewAgentsRunIn are the agents of the CrewAI crews fn builds and runs:
// Crew(agents=[...]) (the list's agents, followed like any agent list:
// self.writer set in __init__ to a factory's Agent), and an in-tree
// @CrewBase class run as SomeCrew().crew().kickoff(...) (its @agent
// methods' agents). A graph node that runs a crew acts through its agents.
func (b *builder) crewAgentsRunIn(fn *extract.Func) []*extract.Agent {
	var out []*extract.Agent
	seen := map[*extract.Agent]bool{}
	add := func(a *extract.Agent) {
		if a != nil && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, c := range fn.Calls {
		if c.Expr == nil {
			continue
		}
		if c.HeadKind == extract.HeadImport && (c.Qual == "crewai.Crew" || c.Qual == "crewai.crew.Crew") {
			for _, m := range b.members(c.Expr.Kwarg("agents"), 0) {
				add(m.agent)
			}
			continue
		}
		head, rest, ok := strings.Cut(c.Qual, "().crew().")
		if !ok || !strings.HasPrefix(rest, "kickoff") || strings.Contains(rest, ".") {
			continue
		}
		t, ok := b.ix.lookupOrQualified(fn.Scope, head)
		if !ok || t.bind == nil || t.bind.Kind != extract.BindClass {
			continue
		}
		cl := t.bind.Class
		for a := range b.agents {
			if a.Call != nil && a.Call.Call != nil && a.Call.Call.Func != nil && a.Call.Call.Func.Class == cl.Name &&
				a.Call.Call.Func.Loc.File == cl.Loc.File {
				add(a)
			}
		}
	}
	return out
}

// useGates returns the agent's approvals that stand before every call of a
// tool: ones that name it or its graph node, interrupt_after on every node
// leading to it, and gate nodes that dominate its node.
func (b *builder) useGates(f *extract.File, a *extract.Agent, t *capgraph.Tool, node, key string) []*extract.Approval {
	var out []*extract.Approval
	approvals := a.Approvals
	for _, c := range b.compiled[a] {
		approvals = append(approvals[:len(approvals):len(approvals)], c.Approvals...)
	}
	for _, ap := range approvals {
		if ap.Covers(t.Name, node) || key != "" && key != t.Name && ap.Tools != nil && ap.Covers(key, node) || (ap.After && a.Graph != nil && afterCovers(a.Graph, ap.Nodes, node)) {
			out = append(out, ap)
		}
	}
	if a.Graph != nil && node != "" && !a.Graph.Open {
		if ap := b.pathGate(a, node); ap != nil {
			out = append(out, ap)
		}
	}
	return out
}

// pathGate returns an approval when every path from the model to node
// passes some node that asks a human: one whose body always interrupts, or
// one compiled into interrupt_before/interrupt_after. No single one of them
// need stand on every path (two draft nodes, each with interrupt(), both
// leading to send). Paths start at the nodes that call the model, where
// its choices enter the graph, or at the start when none is known or node
// cannot be reached from them.
func (b *builder) pathGate(a *extract.Agent, node string) *extract.Approval {
	g := a.Graph
	gates := map[string]bool{}
	var names []string
	var first extract.Loc
	for _, n := range g.Nodes {
		if n.Name == node {
			continue
		}
		if fn := b.ix.funcOf(n.Action); fn != nil && fn.AlwaysGates {
			gates[n.Name] = true
			names = append(names, n.Name)
			if !first.Valid() {
				first = fn.Gates[0].Loc
			}
		}
	}
	for _, ap := range a.Approvals {
		if ap.Kind != "interrupt_before" && ap.Kind != "interrupt_after" {
			continue
		}
		for _, n := range ap.Nodes {
			if n != node && n != "*" && g.Node(n) != nil && !gates[n] {
				gates[n] = true
				names = append(names, n)
				if !first.Valid() {
					first = ap.Loc
				}
			}
		}
	}
	if len(gates) == 0 {
		return nil
	}
	var origins []string
	for _, n := range g.Nodes {
		if n.Model && !gates[n.Name] {
			if n.Name == node {
				return nil // the model's own node runs before any gate
			}
			origins = append(origins, n.Name)
		}
	}
	reached := false
	for _, o := range origins {
		if reachableFrom(g, o, nil)[node] {
			reached = true
		}
	}
	if !reached {
		origins = []string{"__start__"}
	}
	if !reachableFrom(g, "__start__", nil)[node] {
		return nil
	}
	for _, o := range origins {
		if reachableFrom(g, o, gates)[node] {
			return nil
		}
	}
	sort.Strings(names)
	return &extract.Approval{Kind: "interrupt", Loc: first, Nodes: []string{node},
		Detail: "every path to graph node " + node + " passes a node that asks a human (" + strings.Join(names, ", ") + ")"}
}

// afterCovers: interrupt_after on nodes gates a node all of whose
// predecessors are among them.
func afterCovers(g *extract.Graph, after []string, node string) bool {
	if g.Open || node == "" {
		return false
	}
	in := map[string]bool{}
	for _, n := range after {
		if n == "*" {
			return true
		}
		in[n] = true
	}
	preds := 0
	for _, e := range g.Edges {
		if e.To == node {
			preds++
			if !in[e.From] {
				return false
			}
		}
	}
	return preds > 0
}

// reachableFrom returns the nodes reachable from `from` without passing
// the nodes in skip.
func reachableFrom(g *extract.Graph, from string, skip map[string]bool) map[string]bool {
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, s := range g.Successors(n) {
			if !skip[s] && !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return seen
}

// members resolves an expression of a tool, handoff or sub-agent list to
// what it denotes. What cannot be resolved becomes a fail-closed tool.
func (b *builder) members(e *extract.Expr, depth int) []member {
	if e == nil {
		return nil
	}
	if depth > 12 {
		return []member{b.unknown(e, "the list is built too indirectly to follow")}
	}
	switch e.Kind {
	case extract.ExprDict:
		if sv := b.dictServer(e); sv != nil {
			var out []member
			for _, st := range b.serverTools(sv, "") {
				out = append(out, member{tool: st.tool, loc: e.Loc})
			}
			return out
		}
		if name, ok := specName(e); ok {
			// A model SDK's tool spec ({"name": "get_weather", ...}, or
			// OpenAI's {"type": "function", "function": {"name": ...}}): the
			// function that carries it out, found by its name.
			return []member{b.specTool(e, name)}
		}
		if typ, ok := specType(e); ok {
			return []member{b.hosted(e, typ)}
		}
		fallthrough
	case extract.ExprList, extract.ExprConcat, extract.ExprBoolOp, extract.ExprCond:
		// A list, a + b, or a registry {"name": tool} (its values); either
		// side of tools or [] / extra and [extra] / a if c else b.
		var out []member
		for _, x := range e.Elems {
			out = append(out, b.members(x, depth+1)...)
		}
		return out
	case extract.ExprSplat:
		if len(e.Elems) > 0 {
			return b.members(e.Elems[0], depth+1)
		}
	case extract.ExprNone:
		return nil
	case extract.ExprComp:
		// [registry[n] for n in NAMES]: the entries NAMES picks, when both
		// are known; else some of the element's values.
		if ms, ok := b.comprehension(e, depth); ok {
			return ms
		}
		if len(e.Elems) == 2 && e.Name != "" && e.Elems[0] != nil && e.Elems[0].Kind == extract.ExprName && e.Elems[0].Name == e.Name {
			// [t for t in tools], {t.name: t for t in tools}: the list's own
			// elements; [t for t in kit.get_tools() if t.name in (...)]: the
			// members the name test keeps.
			return pickByName(b.members(e.Elems[1], depth+1), e.Cond, e.Name)
		}
		if len(e.Elems) == 2 && e.Name != "" && specOfLoopVar(e.Elems[0], e.Name) {
			// [t.to_dict() for t in TOOLS]: the spec of each tool object
			// names that tool, which the loop then runs.
			return pickByName(b.members(e.Elems[1], depth+1), e.Cond, e.Name)
		}
		return b.members(e.Elems[0], depth+1)
	case extract.ExprSubscript:
		// registry[name] or tools[0]: any element of the container.
		if len(e.Elems) > 0 {
			if c := extract.Deref(e.Elems[0]); c != nil && (c.Kind == extract.ExprDict || c.Kind == extract.ExprList || c.Kind == extract.ExprName) {
				return b.members(e.Elems[0], depth+1)
			}
		}
	case extract.ExprName:
		return b.name(e, depth)
	case extract.ExprCall:
		return b.call(e, depth, "")
	}
	return []member{b.unknown(e, "the list element is not a name or call acg can follow")}
}

// specName is the tool name of a function spec given as a dict literal:
// "name" beside "input_schema" or "parameters" (Anthropic, OpenAI
// Responses), or "function": {"name": ...} (OpenAI Chat Completions).
func specName(e *extract.Expr) (string, bool) {
	if fn := extract.Deref(e.Entry("function")); fn != nil && fn.Kind == extract.ExprDict {
		return extract.Deref(fn.Entry("name")).StrValue()
	}
	if e.Entry("input_schema") == nil && e.Entry("parameters") == nil {
		return "", false
	}
	return extract.Deref(e.Entry("name")).StrValue()
}

// specTool is the tool a function spec names: a function of that name in
// the spec's scope, or the function a name → function table of the file
// maps it to (TOOLS = {"get_weather": get_weather}); else a tool acg
// cannot follow (fail closed).
func (b *builder) specTool(e *extract.Expr, name string) member {
	if e.Scope != nil {
		if fn := extract.FuncDef(e.Scope, name); fn != nil {
			if ms := b.name(&extract.Expr{Kind: extract.ExprName, Name: name, Scope: e.Scope, Loc: e.Loc}, 1); len(ms) == 1 && ms[0].tool != nil {
				return ms[0]
			}
		}
		if f := b.ix.fileOf(e.Scope); f != nil {
			for _, fn := range f.Funcs {
				for _, bs := range fn.Scope.Bindings {
					for _, bd := range bs {
						v := extract.Deref(bd.Value)
						if bd.Kind != extract.BindAssign || v == e {
							continue
						}
						if el := v.Entry(name); el != nil && el.Kind == extract.ExprName {
							if ms := b.members(el, 1); len(ms) == 1 && ms[0].tool != nil {
								return ms[0]
							}
						}
					}
				}
			}
		}
	}
	return b.unknown(e, fmt.Sprintf("tool spec %q names no function acg can find", name))
}

// specType returns the "type" of a tool spec given as a dict literal
// ({"type": "web_search_preview"}): a provider-hosted tool, not a registry.
func specType(e *extract.Expr) (string, bool) {
	for i, k := range e.Keys {
		if s, ok := k.StrValue(); ok && s == "type" && i < len(e.Elems) {
			return e.Elems[i].StrValue()
		}
	}
	return "", false
}

// hosted makes the tool of a provider-hosted tool spec: the catalog's
// labels for its type, or fail closed for a type the catalog does not
// know (the client's code may carry it out).
func (b *builder) hosted(e *extract.Expr, typ string) member {
	h := b.an.Catalog.Hosted(typ)
	if h == nil {
		return b.unknown(e, fmt.Sprintf("tool spec of type %q is not a hosted tool acg knows", typ))
	}
	name := h.Name
	for i, k := range e.Keys {
		if s, ok := k.StrValue(); ok && s == "name" && i < len(e.Elems) {
			if v, ok := e.Elems[i].StrValue(); ok {
				name = v
			}
		}
	}
	id := fmt.Sprintf("%s#%s@%d", e.Loc.File, typ, e.Loc.Start.Line)
	if ct, ok := b.tools[id]; ok {
		return member{tool: ct, loc: e.Loc}
	}
	t := &extract.Tool{ID: id, Name: name, Framework: extract.Framework(h.Provider), Kind: extract.ToolPrebuilt, Class: typ, Ctor: e, Loc: e.Loc, NameLoc: e.Loc}
	ct := &capgraph.Tool{ID: id, Name: name, Framework: extract.Framework(h.Provider), Kind: extract.ToolPrebuilt, Loc: e.Loc, Src: t,
		Effects: h.EffectsOf(fmt.Sprintf("catalog: hosted tool type %s — %s", typ, h.Summary))}
	b.tools[id] = ct
	b.order = append(b.order, id)
	return member{tool: ct, loc: e.Loc}
}

// superInitName is the name a class gives its tool through its base's
// constructor (super().__init__(name="think", ...)), else "".
func superInitName(cl *extract.Class) string {
	init := cl.Methods["__init__"]
	if init == nil {
		return ""
	}
	for _, c := range init.Calls {
		if c.Expr == nil || !strings.HasSuffix(c.Expr.Name, ".__init__") || c.Expr.Recv == nil || !strings.HasPrefix(c.Expr.Recv.Name, "super") {
			continue
		}
		if s, ok := extract.Deref(c.Expr.Kwarg("name")).StrValue(); ok {
			return s
		}
	}
	return ""
}

// specMethods turn a tool object into the spec a model SDK takes (the
// object's own schema: nothing runs).
var specMethods = map[string]bool{"to_dict": true, "to_param": true, "to_params": true, "to_spec": true, "spec": true,
	"schema": true, "to_schema": true, "to_json_schema": true, "to_openai_tool": true, "to_anthropic_tool": true, "as_tool_param": true}

// specOfLoopVar reports v.to_dict() (a spec method called on the loop
// variable v, with no arguments).
func specOfLoopVar(x *extract.Expr, v string) bool {
	if x == nil || x.Kind != extract.ExprCall || x.Recv != nil || len(x.Args) > 0 || len(x.Kw) > 0 {
		return false
	}
	recv, m, ok := cutLast(x.Name)
	return ok && recv == v && specMethods[m]
}

// pickByName keeps the tools a comprehension's condition selects by the
// loop variable's name attribute (v.name == "x", v.name in ("x", "y"), and
// their negations). A condition it cannot read keeps every member.
func pickByName(ms []member, cond *extract.Expr, v string) []member {
	if cond == nil || cond.Kind != extract.ExprCompare || len(cond.Elems) != 2 {
		return ms
	}
	l, r := cond.Elems[0], cond.Elems[1]
	if r != nil && r.Kind == extract.ExprName && r.Name == v+".name" && (cond.Str == "==" || cond.Str == "!=") {
		l, r = r, l // "x" == t.name
	}
	if l == nil || l.Kind != extract.ExprName || l.Name != v+".name" || r == nil {
		return ms
	}
	names := map[string]bool{}
	switch r.Kind {
	case extract.ExprStr:
		names[r.Str] = true
	case extract.ExprList:
		for _, x := range r.Elems {
			s, ok := x.StrValue()
			if !ok {
				return ms
			}
			names[s] = true
		}
	default:
		return ms
	}
	var keep bool
	switch cond.Str {
	case "==", "in":
		keep = true
	case "!=", "not in":
		keep = false
	default:
		return ms
	}
	var out []member
	for _, m := range ms {
		// A tool acg could not follow (fail closed) has no name to test: kept.
		if m.tool == nil || m.tool.Framework == extract.FrameworkUnknown || names[m.tool.Name] == keep {
			out = append(out, m)
		}
	}
	return out
}

// name resolves a name in its scope, across imports.
func (b *builder) name(e *extract.Expr, depth int) []member {
	if e.Scope == nil {
		return []member{b.unknown(e, "no scope")}
	}
	t, ok := b.ix.lookup(e.Scope, e.Name, 0)
	if !ok {
		if q, isImport := e.Scope.Qualify(e.Name); isImport {
			// A library's ready-made tool object (google.adk.tools.google_search):
			// the catalog's instance entry.
			if ct := b.an.Catalog.Tool(q); ct != nil && ct.Kind == "instance" {
				return []member{{tool: b.prebuilt(e, q, ""), loc: e.Loc}}
			}
			return []member{b.unknown(e, e.Name+" is imported from outside the scanned tree")}
		}
		if ms, ok := b.selfAttr(e, depth); ok {
			return ms
		}
		return []member{b.unknown(e, e.Name+" is not defined anywhere acg can see")}
	}
	if t.bind == nil {
		return []member{b.unknown(e, e.Name+" is a module")}
	}
	f := t.file
	bd := b.liveBinding(e, t.bind)
	switch bd.Kind {
	case extract.BindDef:
		if tool := f.ToolBySymbol(bd.Name); tool != nil && tool.Func == bd.Func {
			return []member{{tool: b.addTool(tool), loc: e.Loc}}
		}
		// A plain function in a tool list is a tool (LangGraph and the
		// OpenAI SDK wrap callables).
		tool := &extract.Tool{ID: f.Path + "#" + bd.Name, Name: bd.Name, Symbol: bd.Name, Framework: frameworkOf(f),
			Kind: extract.ToolFunc, Func: bd.Func, Loc: bd.Func.Loc, NameLoc: bd.Func.NameLoc, Approvals: append([]*extract.Approval(nil), bd.Func.SelfApprovals...)}
		return []member{{tool: b.addTool(tool), loc: e.Loc}}
	case extract.BindClass:
		if _, m, ok := strings.Cut(t.name, "."); ok {
			// BrowserTools.scrape: a tool defined as a method of a plain class
			// (a common CrewAI and LangChain pattern).
			if fn := bd.Class.Methods[m]; fn != nil {
				for _, tool := range f.Tools {
					if tool.Func == fn {
						return []member{{tool: b.addTool(tool), loc: e.Loc}}
					}
				}
			}
			return []member{b.unknown(e, t.name+" is not a tool acg knows")}
		}
		if tool := f.ToolBySymbol(bd.Name); tool != nil {
			return []member{{tool: b.addTool(tool), loc: e.Loc}}
		}
		if st := b.schemaTool(f, bd.Class); st != nil {
			return []member{{tool: st, loc: e.Loc}}
		}
		return []member{b.unknown(e, "class "+bd.Name+" is not a known tool class")}
	case extract.BindAssign:
		if key := extract.LastDot(e.Name); key != e.Name && key != bd.Name {
			// slackTools.search_slack, slackTools an object literal of
			// tools: that one property, not the whole object. (A name whose
			// last part is the binding's own is the binding reached through
			// a module: tools.appTools.)
			if el := extract.Deref(bd.Value).Entry(key); el != nil {
				return b.members(el, depth+1)
			}
		}
		if a := f.AgentByVar(bd.Name); a != nil && bd.Value != nil && bd.Value.Call != nil && b.byCall[bd.Value.Call] == a {
			return []member{{agent: a, loc: e.Loc}}
		}
		if bd.Value != nil {
			// The tools a constructor made (one, or a Mastra Workspace's).
			var made []member
			for _, tool := range f.Tools {
				if tool.Symbol == bd.Name && tool.Ctor != nil && tool.Ctor == bd.Value {
					made = append(made, member{tool: b.addTool(tool), loc: e.Loc})
				}
			}
			if len(made) > 0 {
				return made
			}
		}
		out := b.membersOfValue(f, bd, depth)
		// Appends to the same variable anywhere in its scope, unless a
		// condition the arguments decide excludes them.
		for _, x := range e.Scope.Lookup(bd.Name) {
			if x.Kind == extract.BindAppend && x.Attr == "" && !b.excluded(x.Guards) {
				out = append(out, b.members(x.Value, depth+1)...)
			}
		}
		if t.file != nil && e.Scope.Lookup(bd.Name) == nil {
			for _, x := range t.file.Scope.Lookup(bd.Name) {
				if x.Kind == extract.BindAppend && x.Attr == "" && !b.excluded(x.Guards) {
					out = append(out, b.members(x.Value, depth+1)...)
				}
			}
		}
		return out
	}
	if bd.Kind == extract.BindLoop {
		if ms, ok := b.serverMembers(bd.Value); ok { // with MCPServerAdapter(...) as tools
			return ms
		}
	}
	if bd.Kind == extract.BindParam {
		if av, ok := b.fr.arg(bd); ok {
			return b.inFrame(av.fr, func() []member { return b.members(av.e, depth+1) })
		}
		if ms, ok := b.paramArgs(e, bd, depth); ok {
			return ms
		}
	}
	return []member{b.unknown(e, e.Name+" is a parameter or loop variable: its value is not known statically")}
}

// paramArgs resolves a function parameter through the calls of that
// function in the same file: async def run(server): Agent(mcp_servers=[server])
// called as run(server) inside `async with MCPServerStdio(...) as server`.
// ok is false when the function is never called there.
func (b *builder) paramArgs(e *extract.Expr, bd *extract.Binding, depth int) ([]member, bool) {
	var fn *extract.Func
	for sc := e.Scope; sc != nil; sc = sc.Parent {
		for _, x := range sc.Bindings[bd.Name] {
			if x == bd {
				fn = sc.Func
			}
		}
	}
	f := b.ix.fileOf(e.Scope)
	if fn == nil || f == nil || fn.Class != "" || fn.Name == "<module>" {
		return nil, false
	}
	idx := -1
	for i, p := range fn.Params {
		if p.Name == bd.Name {
			idx = i
		}
	}
	var out []member
	found := false
	for _, caller := range f.Funcs {
		for _, c := range caller.Calls {
			if c.HeadKind != extract.HeadLocal || c.Qual != fn.Name || c.Expr == nil {
				continue
			}
			if arg := c.Expr.Arg(idx, bd.Name); arg != nil {
				found = true
				out = append(out, b.members(arg, depth+1)...)
			}
		}
	}
	return out, found
}

func (b *builder) membersOfValue(f *extract.File, bd *extract.Binding, depth int) []member {
	v := bd.Value
	if v == nil && bd.Unpacked != nil {
		if ms, ok := b.unpacked(bd, depth); ok {
			return ms
		}
	}
	if v == nil {
		return []member{b.unknown(&extract.Expr{Name: bd.Name, Loc: bd.Loc}, "no value")}
	}
	if v.Kind == extract.ExprCall {
		// A prebuilt tool assigned to a variable is named after it.
		return b.call(v, depth, bd.Name)
	}
	return b.members(v, depth+1)
}

// unpacked resolves one name of a tuple target (tools, client = await
// load_tools()): element UnpackIndex of a tuple literal, or of every tuple
// an in-tree function returns. ok is false when a value is not a tuple of
// that length.
func (b *builder) unpacked(bd *extract.Binding, depth int) ([]member, bool) {
	v := extract.Deref(bd.Unpacked)
	if v == nil || depth > 12 {
		return nil, false
	}
	elem := func(x *extract.Expr) (*extract.Expr, bool) {
		x = extract.Deref(x)
		if x == nil || x.Kind != extract.ExprList || bd.UnpackIndex >= len(x.Elems) {
			return nil, false
		}
		return x.Elems[bd.UnpackIndex], true
	}
	if x, ok := elem(v); ok {
		return b.members(x, depth+1), true
	}
	if v.Kind != extract.ExprCall {
		return nil, false
	}
	fn := b.calledFunc(v, extract.QualOf(v))
	if fn == nil || len(fn.ReturnExprs) == 0 {
		return nil, false
	}
	var xs []*extract.Expr
	for _, r := range fn.ReturnExprs {
		x, ok := elem(r)
		if !ok {
			return nil, false
		}
		xs = append(xs, x)
	}
	return b.inFrame(b.bindArgs(fn, v), func() []member {
		var out []member
		for _, x := range xs {
			out = append(out, b.members(x, depth+1)...)
		}
		return out
	}), true
}

// call resolves a call in a tool or agent list.
func (b *builder) call(e *extract.Expr, depth int, symbol string) []member {
	if ms, ok := b.serverMembers(e); ok {
		return ms
	}
	f := b.ix.fileOf(e.Scope)
	if e.Call != nil {
		if a := b.byCall[e.Call]; a != nil {
			return []member{{agent: a, loc: e.Loc}}
		}
		if f != nil {
			if tool := f.ToolByCall(e.Call); tool != nil {
				return []member{{tool: b.addTool(tool), loc: e.Loc}}
			}
		}
	}
	q := extract.QualOf(e)
	if q == "" && e.Call != nil && e.Call.HeadKind == extract.HeadObject && b.an.Catalog.Tool(e.Call.Qual) != nil {
		// anthropic.tools.webSearch_20250305() on a provider made by
		// createAnthropic({...}): the package's catalogued tool, as on its
		// default instance.
		q = e.Call.Qual
	}
	if e.Call != nil && e.Call.HeadKind == extract.HeadBuiltin {
		switch e.Call.Qual {
		case "builtins.list", "builtins.tuple", "builtins.set", "builtins.sorted", "builtins.reversed":
			return b.members(e.Arg(0, ""), depth+1)
		}
	}
	if strings.HasSuffix(e.Name, ".values") && e.Recv == nil && len(e.Args) == 0 {
		// registry.values()
		return b.members(&extract.Expr{Kind: extract.ExprName, Name: strings.TrimSuffix(e.Name, ".values"), Scope: e.Scope, Loc: e.Loc}, depth+1)
	}
	if ms, ok := b.wrapped(e, depth); ok {
		return ms
	}
	if fn := b.calledFunc(e, q); fn != nil {
		// A function of the tree that builds the list (get_tools()): what
		// it returns, with its parameters bound to this call's arguments
		// so that the returns and appends they rule out are dropped.
		return b.inFrame(b.bindArgs(fn, e), func() []member {
			var out []member
			for i, r := range fn.ReturnExprs {
				if i < len(fn.ReturnGuards) && b.excluded(fn.ReturnGuards[i]) {
					continue
				}
				out = append(out, b.members(r, depth+1)...)
			}
			return out
		})
	}
	switch {
	case extract.QualIs(q, "handoff", "agents"):
		return b.members(e.Arg(0, "agent"), depth+1)
	case strings.HasSuffix(e.Name, ".compile") || strings.HasSuffix(e.Name, ".get_graph"):
		return nil
	case strings.HasSuffix(e.Name, ".get_tools") && (e.Recv == nil || e.Recv.Kind == extract.ExprCall):
		return b.toolkit(e, depth)
	case (strings.HasSuffix(e.Name, ".getTools") || strings.HasSuffix(e.Name, ".listTools")) && e.Recv == nil:
		// await mcp.getTools() on a Mastra MCPClient built in code.
		recv := extract.Deref(&extract.Expr{Kind: extract.ExprName, Name: e.Name[:strings.LastIndexByte(e.Name, '.')], Scope: e.Scope, Loc: e.Loc})
		if ms, ok := b.clientTools(recv, e.Loc); ok {
			return ms
		}
	case extract.QualIs(q, "load_tools", "langchain", "langchain_classic", "langchain_community"):
		return b.loadTools(e)
	case extract.QualIs(q, "tool", "langchain", "langchain_core") && len(e.Args) == 1 && len(e.Kw) == 0:
		// tool(Schema): a schema class made a tool; the model fills its
		// fields and the tool returns them.
		if x := e.Args[0]; x.Kind == extract.ExprName && x.Scope != nil {
			if t, ok := b.ix.lookup(x.Scope, x.Name, 0); ok && t.bind != nil && t.bind.Kind == extract.BindClass {
				if st := b.schemaTool(t.file, t.bind.Class); st != nil {
					return []member{{tool: st, loc: e.Loc}}
				}
			}
		}
	}
	if q != "" {
		if ct := b.an.Catalog.Tool(q); ct != nil && ct.Wraps != "" {
			// tool_namespace(tools=[...]), ToolNode(tools): the tools it
			// is given, by keyword or at the position params give it.
			pos := slices.Index(ct.Params, ct.Wraps)
			arg := e.Arg(pos, ct.Wraps)
			if arg == nil {
				return []member{b.unknown(e, "the tools given to "+e.Name+"(...) are not an argument acg can read")}
			}
			return b.members(arg, depth+1)
		}
		if ct := b.an.Catalog.Tool(q); ct != nil {
			return []member{{tool: b.prebuilt(e, q, symbol), loc: e.Loc}}
		}
		if b.an.Catalog.Toolkit(q) != nil {
			// A toolkit object where tools are expected
			// (create_sql_agent(llm, toolkit=SQLDatabaseToolkit(...))).
			return b.kitMembers(e, e, q)
		}
		// A class of the tree: its tool (BaseTool subclass) if it is one.
		if f != nil {
			if t, ok := b.ix.qualified(q, f, 0); ok && t.bind != nil && t.bind.Kind == extract.BindClass {
				if tool := t.file.ToolBySymbol(t.bind.Name); tool != nil {
					return []member{{tool: b.addTool(tool), loc: e.Loc}}
				}
				if ct := b.classTool(t.file, t.bind.Class, e, 0); ct != nil {
					return []member{{tool: ct, loc: e.Loc}}
				}
				if ct := b.objectTool(t.file, t.bind.Class); ct != nil {
					return []member{{tool: ct, loc: e.Loc}}
				}
				return []member{b.unknown(e, "class "+t.bind.Class.Name+" of the tree is no tool class acg knows and has not exactly one run method ("+strings.Join(objectRunMethods, ", ")+")")}
			}
		}
		return []member{{tool: b.prebuilt(e, q, symbol), loc: e.Loc}}
	}
	if e.Call != nil && e.Call.HeadKind == extract.HeadLocal && f != nil {
		if tool := f.ToolBySymbol(e.Call.Qual); tool != nil {
			return []member{{tool: b.addTool(tool), loc: e.Loc}}
		}
		if cl := f.Classes[e.Call.Qual]; cl != nil {
			if ct := b.classTool(f, cl, e, 0); ct != nil {
				return []member{{tool: ct, loc: e.Loc}}
			}
			if ct := b.objectTool(f, cl); ct != nil {
				return []member{{tool: ct, loc: e.Loc}}
			}
		}
	}
	return []member{b.unknown(e, "the tool is made by "+e.Name+"(...), which acg cannot follow")}
}

// objectRunMethods are the methods a hand-written loop runs a tool object
// of its own by (tool.execute(**block.input)).
var objectRunMethods = []string{"execute", "aexecute", "run", "arun", "__call__", "invoke", "forward"}

// objectTool is the tool an instance of a plain class of the tree makes
// in a tool list: no framework's tool class, but an object the agent's
// loop runs through its one run method, which is then the tool's body.
// With none, or several (which one runs is the loop's choice), there is
// no tool acg can read (nil: fail closed).
func (b *builder) objectTool(f *extract.File, cl *extract.Class) *capgraph.Tool {
	var run *extract.Func
	for _, m := range objectRunMethods {
		if fn := b.ix.methodOf(cl, m, 0); fn != nil && fn != noCode {
			if run != nil {
				return nil
			}
			run = fn
		}
	}
	if run == nil {
		return nil
	}
	name := cl.Name
	if s, ok := extract.Deref(cl.Attrs["name"]).StrValue(); ok && s != "" {
		name = s
	} else if s := superInitName(cl); s != "" {
		name = s
	}
	return b.addTool(&extract.Tool{ID: f.Path + "#" + cl.Name, Name: name, Symbol: cl.Name, Framework: frameworkOf(f),
		Kind: extract.ToolClass, Func: run, Loc: cl.Loc, NameLoc: cl.NameLoc})
}

// classTool makes the tool of an in-tree class whose base is a known tool
// class, however far up: a tool class of the tree (BaseTool subclasses,
// transitively) or a catalogued prebuilt class (class MyRag(RagTool)).
// Its own _run decides its effects, else the nearest inherited _run, else
// the catalogued base's entry. nil when no base is a tool.
func (b *builder) classTool(f *extract.File, cl *extract.Class, e *extract.Expr, depth int) *capgraph.Tool {
	return b.classToolOf(f, cl, e, depth, cl, "")
}

// classToolOf is classTool looking at an ancestor cl of the class top
// (named, in the code, `named` when an in-tree class between sets name).
func (b *builder) classToolOf(f *extract.File, cl *extract.Class, e *extract.Expr, depth int, top *extract.Class, named string) *capgraph.Tool {
	if cl == nil || depth > 8 {
		return nil
	}
	if s, ok := extract.Deref(cl.Attrs["name"]).StrValue(); ok && s != "" && named == "" {
		named = s
	}
	run := cl.Methods["_run"]
	if run == nil {
		run = cl.Methods["_arun"]
	}
	name := cl.Name
	if s, ok := extract.Deref(cl.Attrs["name"]).StrValue(); ok && s != "" {
		name = s
	}
	mk := func(fw extract.Framework, inherited *extract.Func, baseName string) *capgraph.Tool {
		body := run
		if body == nil {
			body = inherited
		}
		if name == cl.Name && baseName != "" {
			if _, own := cl.Attrs["name"]; !own {
				name = baseName
			}
		}
		return b.addTool(&extract.Tool{ID: f.Path + "#" + cl.Name, Name: name, Symbol: cl.Name, Framework: fw,
			Kind: extract.ToolClass, Func: body, Loc: cl.Loc, NameLoc: cl.NameLoc})
	}
	for _, base := range cl.Bases {
		if base == nil || base.Kind != extract.ExprName || cl.Scope == nil {
			continue
		}
		if t, ok := b.ix.lookup(cl.Scope, base.Name, 0); ok && t.bind != nil && t.bind.Kind == extract.BindClass {
			if bt := t.file.ToolBySymbol(t.bind.Name); bt != nil && bt.Kind == extract.ToolClass {
				return mk(bt.Framework, bt.Func, bt.Name)
			}
			if ct := b.classToolOf(t.file, t.bind.Class, e, depth+1, top, named); ct != nil {
				if ct.Src != nil && ct.Src.Kind == extract.ToolPrebuilt {
					if run == nil {
						return ct
					}
					return mk(ct.Framework, run, "")
				}
				var body *extract.Func
				if ct.Src != nil {
					body = ct.Src.Func
				}
				return mk(ct.Framework, body, ct.Name)
			}
			continue
		}
		q := extract.QualOf(base)
		if q == "" || b.an.Catalog.Tool(q) == nil {
			continue
		}
		if run != nil {
			return mk(frameworkOfQual(q), run, "")
		}
		// No body of its own: the catalogued base runs, configured by the
		// subclass's constructor call, under the name the subclass gives.
		ct := b.prebuilt(e, q, top.Name)
		if named != "" {
			ct.Name = named
			ct.Src.Name = named
		}
		return ct
	}
	return nil
}

// schemaTool makes the tool of a data-only schema class (see schemaClass),
// or returns nil when cl is not one.
func (b *builder) schemaTool(f *extract.File, cl *extract.Class) *capgraph.Tool {
	if !b.schemaClass(cl, 0) {
		return nil
	}
	return b.addTool(&extract.Tool{ID: f.Path + "#" + cl.Name, Name: cl.Name, Symbol: cl.Name, Framework: frameworkOf(f),
		Kind: extract.ToolClass, Loc: cl.Loc, NameLoc: cl.NameLoc, Extra: map[extract.ExtraKey]string{extract.ExtraSchemaOnly: "true"}})
}

// schemaClass reports whether cl only describes data: no method of its
// own (a validator or __init__ would run when the model "calls" it), and
// every base a schema base of the rules (pydantic.BaseModel, TypedDict) or
// an in-tree schema class. A base acg cannot read makes it not a schema.
func (b *builder) schemaClass(cl *extract.Class, depth int) bool {
	if cl == nil || depth > 8 || len(cl.Methods) > 0 || len(cl.Bases) == 0 || cl.Scope == nil {
		return false
	}
	for _, base := range cl.Bases {
		if base == nil || base.Kind != extract.ExprName {
			return false
		}
		if q := extract.QualOf(base); q != "" && b.an.Rules.SchemaBase(q) {
			continue
		}
		t, ok := b.ix.lookup(cl.Scope, base.Name, 0)
		if !ok || t.bind == nil || t.bind.Kind != extract.BindClass || !b.schemaClass(t.bind.Class, depth+1) {
			return false
		}
	}
	return true
}

// calledFunc returns the function of the tree a call runs, when the call is
// not a constructor (a class call makes a tool instance, handled apart).
func (b *builder) calledFunc(e *extract.Expr, q string) *extract.Func {
	if e.Call == nil {
		return nil
	}
	if e.Call.HeadKind == extract.HeadObject || e.Call.HeadKind == extract.HeadSelf {
		// agents.research_agent() on a helper class whose methods build the
		// crew's agents (the older CrewAI layout).
		if fn := b.ix.callee(e.Call); fn != nil && len(fn.ReturnExprs) > 0 {
			return fn
		}
		return nil
	}
	var t target
	var ok bool
	switch {
	case e.Call.HeadKind == extract.HeadLocal:
		t, ok = b.ix.lookup(e.Scope, e.Call.Qual, 0)
	case q != "":
		if f := b.ix.fileOf(e.Scope); f != nil {
			t, ok = b.ix.qualified(q, f, 0)
		}
	}
	if !ok || t.bind == nil {
		return nil
	}
	if t.bind.Kind == extract.BindClass && strings.Contains(t.name, ".") {
		// ExaSearchTool.tools(): a method called on its class (a static
		// factory of the tools the class defines).
		if fn := b.ix.funcOfTarget(t); fn != nil && len(fn.ReturnExprs) > 0 {
			return fn
		}
		return nil
	}
	if t.bind.Kind != extract.BindDef || len(t.bind.Func.ReturnExprs) == 0 {
		return nil
	}
	return t.bind.Func
}

// prebuilt makes (once per file and symbol) the tool node of a library
// class instance; the catalog or the fail-closed default decides effects.
func (b *builder) prebuilt(e *extract.Expr, qual, symbol string) *capgraph.Tool {
	f := b.ix.fileOf(e.Scope)
	path := e.Loc.File
	if f != nil {
		path = f.Path
	}
	class := qual[strings.LastIndexByte(qual, '.')+1:]
	key := symbol
	if key == "" {
		key = class
	}
	id := path + "#" + key
	// The same class built twice in a file with different arguments (one
	// with an approval flag, one without) is two tools.
	for n := 2; ; n++ {
		ct, ok := b.tools[id]
		if !ok {
			break
		}
		if ct.Src == nil || ct.Src.Ctor == e || sameCtor(ct.Src.Ctor, e) {
			return ct
		}
		id = fmt.Sprintf("%s#%s~%d", path, key, n)
	}
	name := class
	var approvals []*extract.Approval
	if ct := b.an.Catalog.Tool(qual); ct != nil {
		if ct.Name != "" {
			name = ct.Name
		}
		if ct.NameArg != "" {
			if s, ok := extract.StrArg(e, -1, ct.NameArg); ok {
				name = s
			}
		}
		if ct.ApprovalKwarg != "" {
			if v := e.Kwarg(ct.ApprovalKwarg); v != nil {
				if on, known := extract.Deref(v).Truthy(); known && on {
					approvals = append(approvals, &extract.Approval{Kind: ct.ApprovalKwarg, Loc: v.Loc, All: true, Expr: v})
				}
			}
		}
		if ct.ApprovalConfig != "" {
			// Hosted MCP: tool_config.require_approval "always", or not set
			// at all, where the service's default is to ask.
			kind := ct.ApprovalConfig[strings.LastIndexByte(ct.ApprovalConfig, '.')+1:]
			v, absent := ct.Setting(e, ct.ApprovalConfig)
			if s, _ := extract.Deref(v).StrValue(); s == "always" {
				approvals = append(approvals, &extract.Approval{Kind: kind, Loc: v.Loc, All: true})
			} else if absent && ct.ApprovalDefault == "always" {
				approvals = append(approvals, &extract.Approval{Kind: kind, Loc: e.Loc, All: true,
					Detail: ct.ApprovalConfig + " is not set: the service asks before every call by default"})
			}
		}
	}
	t := &extract.Tool{ID: id, Name: name, Symbol: symbol, Framework: frameworkOfQual(qual), Kind: extract.ToolPrebuilt,
		Class: qual, Ctor: e, Approvals: approvals, Loc: e.Loc, NameLoc: e.Loc}
	return b.addTool(t)
}

// sameCtor reports whether two constructor calls have the same keyword
// arguments (by their literal values), so one tool node serves both.
func sameCtor(a, b *extract.Expr) bool {
	if a == nil || b == nil || len(a.Kw) != len(b.Kw) || len(a.Args) != len(b.Args) {
		return a == b
	}
	for i := range a.Kw {
		if a.Kw[i].Name != b.Kw[i].Name || !sameValue(a.Kw[i].Value, b.Kw[i].Value, 0) {
			return false
		}
	}
	for i := range a.Args {
		if !sameValue(a.Args[i], b.Args[i], 0) {
			return false
		}
	}
	return true
}

// sameValue reports whether two arguments are the same as written, after
// following names to what they are bound to: a setting that narrows a
// catalogued tool (a nested network policy, say) must not be shared by a
// twin built without it. What it cannot compare counts as different: two
// tool nodes where one would do costs nothing, one where two are needed
// could hide labels.
func sameValue(a, b *extract.Expr, depth int) bool {
	a, b = extract.Deref(a), extract.Deref(b)
	if a == nil || b == nil || depth > 8 {
		return a == b
	}
	if a.Kind != b.Kind || a.Name != b.Name || a.Str != b.Str || a.Bool != b.Bool ||
		len(a.Args) != len(b.Args) || len(a.Kw) != len(b.Kw) || len(a.Elems) != len(b.Elems) || len(a.Keys) != len(b.Keys) {
		return false
	}
	switch a.Kind {
	case extract.ExprStr, extract.ExprNum, extract.ExprBool, extract.ExprNone:
		return true
	case extract.ExprName:
		return a.Scope == b.Scope
	case extract.ExprOther:
		return false
	}
	same := func(xs, ys []*extract.Expr) bool {
		for i := range xs {
			if !sameValue(xs[i], ys[i], depth+1) {
				return false
			}
		}
		return true
	}
	for i := range a.Kw {
		if a.Kw[i].Name != b.Kw[i].Name || !sameValue(a.Kw[i].Value, b.Kw[i].Value, depth+1) {
			return false
		}
	}
	return sameValue(a.Recv, b.Recv, depth+1) && same(a.Args, b.Args) && same(a.Elems, b.Elems) && same(a.Keys, b.Keys)
}

func (b *builder) toolkit(e *extract.Expr, depth int) []member {
	recvName := strings.TrimSuffix(e.Name, ".get_tools")
	recv := extract.Deref(&extract.Expr{Kind: extract.ExprName, Name: recvName, Scope: e.Scope, Loc: e.Loc})
	if e.Recv != nil {
		recv, recvName = e.Recv, e.Recv.Name+"(...)" // GmailToolkit().get_tools()
	}
	if attr, ok := strings.CutPrefix(recvName, "self."); ok && e.Scope != nil && e.Scope.Func != nil && e.Scope.Func.Class != "" {
		// toolkit = FileManagementToolkit(...) at class level, used as
		// self.toolkit in a method.
		if f := b.ix.fileOf(e.Scope); f != nil && f.Classes[e.Scope.Func.Class] != nil {
			if v := extract.Deref(f.Classes[e.Scope.Func.Class].Attrs[attr]); v != nil {
				recv = v
			}
		}
	}
	if ms, ok := b.clientTools(recv, e.Loc); ok {
		return ms // await client.get_tools() on an MCP client built in code
	}
	var q string
	switch {
	case recv != nil && recv.Kind == extract.ExprCall:
		q = extract.QualOf(recv)
	case e.Call != nil && e.Call.HeadKind == extract.HeadObject && strings.HasSuffix(e.Call.Qual, "().get_tools"):
		// self.toolkit.get_tools() with self.toolkit = GmailToolkit() set
		// in __init__: the walker knows the attribute's type, not the
		// constructor's arguments (every tool of the kit, fail closed).
		q, recv = strings.TrimSuffix(e.Call.Qual, "().get_tools"), nil
	default:
		return []member{b.unknown(e, recvName+".get_tools() comes from something acg cannot follow")}
	}
	return b.kitMembers(e, recv, q)
}

// kitMembers are the tools of the catalogued toolkit q built by recv (nil
// when its arguments are unknown: every tool of the kit).
func (b *builder) kitMembers(e, recv *extract.Expr, q string) []member {
	kit := b.an.Catalog.Toolkit(q)
	if kit == nil && q == "" && recv != nil && recv.Call != nil {
		// A constructor that is neither imported nor defined in the tree.
		return []member{b.unknown(e, "the toolkit's class "+recv.Call.Qual+" is neither defined in the tree nor imported from a known package")}
	}
	if kit == nil {
		return []member{b.unknown(e, "toolkit "+q+" is not in the catalog")}
	}
	selected := map[string]bool{}
	if kit.SelectionKwarg != "" {
		for _, s := range extract.Strings(recv.Kwarg(kit.SelectionKwarg)) {
			selected[s] = true
		}
	}
	var out []member
	top := q[:strings.IndexByte(q+".", '.')]
	for _, cls := range kit.Tools {
		ct := b.an.Catalog.Tool(top + "." + cls)
		if ct == nil {
			ct = b.an.Catalog.ToolByClass(cls)
		}
		if len(selected) > 0 && (ct == nil || !selected[ct.Name]) {
			continue
		}
		qual := top + "." + cls
		if ct != nil && len(ct.Packages) > 0 {
			qual = ct.Packages[0] + "." + cls
		}
		out = append(out, member{tool: b.prebuilt(&extract.Expr{Kind: extract.ExprCall, Name: cls, Scope: e.Scope, Loc: e.Loc}, qual, ""), loc: e.Loc})
	}
	return out
}

func (b *builder) loadTools(e *extract.Expr) []member {
	var out []member
	for _, n := range extract.Strings(e.Arg(0, "tool_names")) {
		var classes []string
		switch v := b.an.Catalog.LoadTools[n].(type) {
		case string:
			classes = []string{v}
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					classes = append(classes, s)
				}
			}
		case map[string]any:
			// A Tool(...) load_tools builds inline (llm-math's Calculator).
			if m, ok := b.inlineLoadTool(e, n, v); ok {
				out = append(out, m)
				continue
			}
		}
		if len(classes) == 0 {
			out = append(out, b.unknown(&extract.Expr{Name: n, Loc: e.Loc, Scope: e.Scope}, "load_tools name "+n+" is not in the catalog"))
			continue
		}
		for _, c := range classes {
			ct := b.an.Catalog.ToolByClass(c)
			qual := "langchain_community." + c
			if ct != nil && len(ct.Packages) > 0 {
				qual = ct.Packages[0] + "." + c
			}
			out = append(out, member{tool: b.prebuilt(&extract.Expr{Kind: extract.ExprCall, Name: c, Scope: e.Scope, Loc: e.Loc}, qual, ""), loc: e.Loc})
		}
	}
	return out
}

// inlineLoadTool makes the tool of a load_tools name the catalog describes
// inline ({name, effects, roles, summary}): its labels are the catalog's,
// every other label settled false. A "name_arg" entry (named by a keyword
// of the call) is left to fail closed when the keyword is not a literal.
func (b *builder) inlineLoadTool(e *extract.Expr, key string, v map[string]any) (member, bool) {
	name, _ := v["name"].(string)
	if arg, _ := v["name_arg"].(string); arg != "" {
		name, _ = extract.StrArg(e, -1, arg)
	}
	if name == "" {
		return member{}, false
	}
	declared := map[string]bool{}
	for _, l := range effects.Labels {
		declared[string(l)] = false
	}
	effs, _ := v["effects"].([]any)
	for _, x := range effs {
		if s, ok := x.(string); ok {
			declared[s] = true
		}
	}
	var roles []string
	rs, _ := v["roles"].([]any)
	for _, x := range rs {
		if s, ok := x.(string); ok {
			roles = append(roles, s)
		}
	}
	summary, _ := v["summary"].(string)
	id := fmt.Sprintf("%s#%s", e.Loc.File, name)
	if ct, ok := b.tools[id]; ok {
		return member{tool: ct, loc: e.Loc}, true
	}
	t := &extract.Tool{ID: id, Name: name, Framework: extract.FrameworkLangChain, Loc: e.Loc, NameLoc: e.Loc, Declared: declared,
		Extra: map[extract.ExtraKey]string{extract.ExtraDetail: "catalog: load_tools name " + key + " — " + summary, extract.ExtraRoles: strings.Join(roles, " "), extract.ExtraDecidedBy: string(effects.ByCatalog)}}
	return member{tool: b.addTool(t), loc: e.Loc}, true
}

// unknown makes a fail-closed tool for something that cannot be resolved.
func (b *builder) unknown(e *extract.Expr, why string) member {
	name := e.Name
	if name == "" {
		name = "<expression>"
	}
	id := fmt.Sprintf("%s#?%s@%d", e.Loc.File, name, e.Loc.Start.Line)
	if ct, ok := b.tools[id]; ok {
		return member{tool: ct, loc: e.Loc}
	}
	t := &extract.Tool{ID: id, Name: name, Framework: extract.FrameworkUnknown, Kind: extract.ToolPrebuilt, Loc: e.Loc, NameLoc: e.Loc}
	ct := &capgraph.Tool{ID: id, Name: name, Framework: extract.FrameworkUnknown, Kind: extract.ToolPrebuilt, Loc: e.Loc, Src: t,
		Effects: effects.Unknown(why, e.Loc)}
	b.tools[id] = ct
	b.order = append(b.order, id)
	return member{tool: ct, loc: e.Loc}
}

// deepFileTools are the file tools of deepagents' FilesystemMiddleware.
var deepFileTools = map[string]bool{"ls": true, "read_file": true, "write_file": true, "edit_file": true,
	"delete": true, "glob": true, "grep": true}

func frameworkOf(f *extract.File) extract.Framework {
	for _, a := range f.Agents {
		return a.Framework
	}
	for _, t := range f.Tools {
		return t.Framework
	}
	return "python"
}

func frameworkOfQual(q string) extract.Framework {
	if strings.HasPrefix(q, "google.adk.") {
		return extract.FrameworkGoogleADK
	}
	top, _, _ := strings.Cut(q, ".")
	switch top {
	case "agents":
		return extract.FrameworkOpenAIAgents
	case "crewai", "crewai_tools":
		return extract.FrameworkCrewAI
	case "pydantic_ai":
		return extract.FrameworkPydanticAI
	case "agent_framework":
		return extract.FrameworkAgentFramework
	case "langchain", "langchain_classic", "langchain_community", "langchain_core", "langchain_experimental", "langgraph", "langchain_tavily", "langchain_google_community":
		return extract.FrameworkLangChain
	}
	return extract.Framework(top)
}

// containerMutators are the methods that put values into a list, dict or
// set, with the argument that holds them (-1: the last positional one).
var containerMutators = map[string]bool{"append": true, "add": true, "insert": true, "extend": true, "update": true}

// methodTool is the tool a bound method makes: the tool the extractor found
// on it (a decorated method), else a function tool named after the method.
func (b *builder) methodTool(f *extract.File, cl *extract.Class, attr string, fn *extract.Func) *capgraph.Tool {
	for _, tool := range f.Tools {
		if tool.Func == fn {
			return b.addTool(tool)
		}
	}
	return b.addTool(&extract.Tool{ID: f.Path + "#" + cl.Name + "." + attr, Name: attr, Symbol: cl.Name + "." + attr, Framework: frameworkOf(f),
		Kind: extract.ToolFunc, Func: fn, Loc: fn.Loc, NameLoc: fn.NameLoc, Approvals: append([]*extract.Approval(nil), fn.SelfApprovals...)})
}

// selfAttr resolves self.attr in a method to what the class stores in it:
// every value any of its methods assigns to the attribute
// (`self.tools = {...}` in __init__, `self.tools[k] = t`) and every value
// a method puts in it (`self.tools.append(t)`, `.extend(ts)`, `.update(d)`).
// It reports false when the class assigns the attribute nowhere.
func (b *builder) selfAttr(e *extract.Expr, depth int) ([]member, bool) {
	attr, ok := strings.CutPrefix(e.Name, "self.")
	if !ok || strings.Contains(attr, ".") || e.Scope == nil || e.Scope.Func == nil || e.Scope.Func.Class == "" {
		return nil, false
	}
	f := b.ix.fileOf(e.Scope)
	if f == nil || f.Classes[e.Scope.Func.Class] == nil {
		return nil, false
	}
	cl := f.Classes[e.Scope.Func.Class]
	values := cl.SelfValues[attr]
	if len(values) == 0 {
		if fn := cl.Methods[attr]; fn != nil {
			// tools=[self.send_message]: a bound method is a function tool
			// (ADK, LangGraph and the OpenAI SDK take any callable), read
			// like a plain function; self is bound, not a model parameter.
			return []member{{tool: b.methodTool(f, cl, attr, fn), loc: e.Loc}}, true
		}
		return nil, false
	}
	var out []member
	for _, v := range values {
		if v == nil {
			out = append(out, b.unknown(e, e.Name+" is assigned a value acg cannot read"))
			continue
		}
		out = append(out, b.members(v, depth+1)...)
	}
	names := make([]string, 0, len(cl.Methods))
	for n := range cl.Methods {
		names = append(names, n)
	}
	sort.Strings(names) // a stable order of members
	for _, n := range names {
		for _, c := range cl.Methods[n].Calls {
			if c.Expr == nil || c.Expr.Recv != nil {
				continue
			}
			recv, m, ok := strings.Cut(c.Expr.Name, "."+attr+".")
			if !ok || recv != "self" || !containerMutators[m] {
				continue
			}
			var arg *extract.Expr
			if n := len(c.Expr.Args); n > 0 {
				arg = c.Expr.Args[n-1]
			}
			switch {
			case arg == nil:
				out = append(out, b.unknown(c.Expr, "self."+attr+"."+m+"(...) adds values acg cannot read"))
			case m == "extend" || m == "update":
				out = append(out, b.members(arg, depth+1)...)
			default:
				out = append(out, b.members(&extract.Expr{Kind: extract.ExprList, Elems: []*extract.Expr{arg}, Loc: arg.Loc, Scope: arg.Scope}, depth+1)...)
			}
		}
	}
	return out, true
}
