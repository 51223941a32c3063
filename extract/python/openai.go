package python

import "github.com/acg-dev/acg/extract"

// OpenAI Agents SDK: Agent(...) with tools, handoffs and MCP servers,
// @function_tool (with needs_approval), agent.as_tool(), clones and lists
// grown after construction.

func init() { adapters = append(adapters, openaiTools, openaiAgents) }

func openaiTools(f *extract.File) {
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			q, call := decoratorTarget(d)
			if !extract.QualIs(q, "function_tool", "agents") && !(extract.QualIs(q, "tool", "agents")) {
				continue
			}
			t := &extract.Tool{Name: fn.Name, Symbol: fn.Name, Framework: extract.FrameworkOpenAIAgents, Kind: extract.ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if call != nil {
				if s, ok := extract.StrArg(call, -1, "name_override"); ok {
					t.Name = s
				}
				if v, on := truthyArg(call, "needs_approval"); on {
					t.Approvals = append(t.Approvals, &extract.Approval{Kind: "needs_approval", Loc: v.Loc, All: true, Expr: v})
				} else if v != nil && extract.Deref(v).Kind != extract.ExprBool && extract.Deref(v).Kind != extract.ExprNone {
					// A callable decides per call: it may approve on its own, so
					// it is not counted as a human gate (fail closed).
					t.Approvals = append(t.Approvals, &extract.Approval{Kind: "needs_approval", Loc: v.Loc, Detail: "conditional", Expr: v})
				}
			}
			f.AddTool(t)
		}
	}
	for _, c := range f.Calls() {
		e := c.Expr
		if c.HeadKind == extract.HeadImport && extract.QualIs(c.Qual, "FunctionTool", "agents") {
			// FunctionTool(name=..., params_json_schema=..., on_invoke_tool=fn):
			// the SDK's tool built by hand; fn(ctx, args_json) is its body.
			t := &extract.Tool{Name: agentName(e, c, "FunctionTool"), Symbol: c.AssignedTo, Framework: extract.FrameworkOpenAIAgents, Kind: extract.ToolFunc,
				FuncRef: e.Kwarg("on_invoke_tool"), Ctor: e, Loc: c.Loc, NameLoc: c.Loc}
			if v, on := truthyArg(e, "needs_approval"); on {
				t.Approvals = append(t.Approvals, &extract.Approval{Kind: "needs_approval", Loc: v.Loc, All: true, Expr: v})
			} else if v != nil && extract.Deref(v).Kind != extract.ExprBool && extract.Deref(v).Kind != extract.ExprNone {
				t.Approvals = append(t.Approvals, &extract.Approval{Kind: "needs_approval", Loc: v.Loc, Detail: "conditional", Expr: v})
			}
			f.AddTool(t)
			continue
		}
		if c.Method() != "as_tool" || c.HeadKind == extract.HeadImport || e.Recv != nil {
			continue
		}
		recv := e.Name[:len(e.Name)-len(".as_tool")]
		if a := f.AgentByVar(recv); a != nil && a.Framework != extract.FrameworkOpenAIAgents {
			continue // another framework's as_tool (agentframework.go)
		}
		name, _ := extract.StrArg(e, 0, "tool_name")
		if name == "" {
			name = recv
		}
		t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkOpenAIAgents, Kind: extract.ToolAgent, Ctor: e,
			AgentRef: &extract.Expr{Kind: extract.ExprName, Name: recv, Scope: e.Scope, Loc: e.Loc}, Loc: c.Loc, NameLoc: c.Loc}
		if v, on := truthyArg(e, "needs_approval"); on {
			t.Approvals = append(t.Approvals, &extract.Approval{Kind: "needs_approval", Loc: v.Loc, All: true, Expr: v})
		}
		f.AddTool(t)
	}
}

func openaiAgents(f *extract.File) {
	for _, c := range f.Calls() {
		e := c.Expr
		switch {
		case c.HeadKind == extract.HeadImport && (extract.QualIs(c.Qual, "Agent", "agents") || extract.QualIs(c.Qual, "SandboxAgent", "agents")):
			a := &extract.Agent{Framework: extract.FrameworkOpenAIAgents, Ctor: extract.LastDot(c.Qual), Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "Agent")
			if s, ok := extract.StrArg(e, 0, "name"); ok && s != "" {
				a.Name = s
			}
			openaiMembers(a, e)
			f.AddAgent(a)
		case c.Method() == "clone" && e.Recv == nil && c.HeadKind != extract.HeadImport:
			// other = base.clone(name=..., tools=[...]): inherits what it does not override.
			recv := e.Name[:len(e.Name)-len(".clone")]
			base := f.AgentByVar(recv)
			if base == nil || base.Framework != extract.FrameworkOpenAIAgents {
				continue
			}
			a := &extract.Agent{Framework: extract.FrameworkOpenAIAgents, Ctor: "clone", Loc: c.Loc, Call: e, Var: c.AssignedTo,
				Extra: map[extract.ExtraKey]string{extract.ExtraCloneOf: recv}}
			a.Name = agentName(e, c, "Agent")
			a.Tools, a.Handoffs, a.MCPServers = base.Tools, base.Handoffs, base.MCPServers
			openaiMembers(a, e)
			f.AddAgent(a)
		}
	}
}

func openaiMembers(a *extract.Agent, e *extract.Expr) {
	if tl := e.Kwarg("tools"); tl != nil {
		a.Tools = []extract.ToolRef{{Expr: tl}}
	}
	if h := e.Kwarg("handoffs"); h != nil {
		a.Handoffs = []*extract.Expr{h}
	}
	if m := e.Kwarg("mcp_servers"); m != nil {
		a.MCPServers = []*extract.Expr{m}
	}
}
