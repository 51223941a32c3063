package extract

// OpenAI Agents SDK: Agent(...) with tools, handoffs and MCP servers,
// @function_tool (with needs_approval), agent.as_tool(), clones and lists
// grown after construction.

func init() { adapters = append(adapters, openaiTools, openaiAgents) }

func openaiTools(f *File) {
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			q, call := decoratorTarget(d)
			if !qualIs(q, "function_tool", "agents") && !(qualIs(q, "tool", "agents")) {
				continue
			}
			t := &Tool{Name: fn.Name, Symbol: fn.Name, Framework: "openai-agents", Kind: ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if call != nil {
				if s, ok := StrArg(call, -1, "name_override"); ok {
					t.Name = s
				}
				if v, on := truthyArg(call, "needs_approval"); on {
					t.Approvals = append(t.Approvals, &Approval{Kind: "needs_approval", Loc: v.Loc, All: true, Expr: v})
				} else if v != nil && Deref(v).Kind != ExprBool && Deref(v).Kind != ExprNone {
					// A callable decides per call: it may approve on its own, so
					// it is not counted as a human gate (fail closed).
					t.Approvals = append(t.Approvals, &Approval{Kind: "needs_approval", Loc: v.Loc, Detail: "conditional", Expr: v})
				}
			}
			f.addTool(t)
		}
	}
	for _, c := range f.calls() {
		e := c.Expr
		if c.Method() != "as_tool" || c.HeadKind == HeadImport || e.Recv != nil {
			continue
		}
		recv := e.Name[:len(e.Name)-len(".as_tool")]
		if a := f.AgentByVar(recv); a != nil && a.Framework != "openai-agents" {
			continue // another framework's as_tool (agentframework.go)
		}
		name, _ := StrArg(e, 0, "tool_name")
		if name == "" {
			name = recv
		}
		t := &Tool{Name: name, Symbol: c.AssignedTo, Framework: "openai-agents", Kind: ToolAgent, Ctor: e,
			AgentRef: &Expr{Kind: ExprName, Name: recv, Scope: e.Scope, Loc: e.Loc}, Loc: c.Loc, NameLoc: c.Loc}
		if v, on := truthyArg(e, "needs_approval"); on {
			t.Approvals = append(t.Approvals, &Approval{Kind: "needs_approval", Loc: v.Loc, All: true, Expr: v})
		}
		f.addTool(t)
	}
}

func openaiAgents(f *File) {
	for _, c := range f.calls() {
		e := c.Expr
		switch {
		case c.HeadKind == HeadImport && (qualIs(c.Qual, "Agent", "agents") || qualIs(c.Qual, "SandboxAgent", "agents")):
			a := &Agent{Framework: "openai-agents", Ctor: lastDot(c.Qual), Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "Agent")
			if s, ok := StrArg(e, 0, "name"); ok && s != "" {
				a.Name = s
			}
			openaiMembers(a, e)
			f.addAgent(a)
		case c.Method() == "clone" && e.Recv == nil && c.HeadKind != HeadImport:
			// other = base.clone(name=..., tools=[...]): inherits what it does not override.
			recv := e.Name[:len(e.Name)-len(".clone")]
			base := f.AgentByVar(recv)
			if base == nil || base.Framework != "openai-agents" {
				continue
			}
			a := &Agent{Framework: "openai-agents", Ctor: "clone", Loc: c.Loc, Call: e, Var: c.AssignedTo,
				Extra: map[string]string{"clone_of": recv}}
			a.Name = agentName(e, c, "Agent")
			a.Tools, a.Handoffs, a.MCPServers = base.Tools, base.Handoffs, base.MCPServers
			openaiMembers(a, e)
			f.addAgent(a)
		}
	}
}

func openaiMembers(a *Agent, e *Expr) {
	if tl := e.Kwarg("tools"); tl != nil {
		a.Tools = []ToolRef{{Expr: tl}}
	}
	if h := e.Kwarg("handoffs"); h != nil {
		a.Handoffs = []*Expr{h}
	}
	if m := e.Kwarg("mcp_servers"); m != nil {
		a.MCPServers = []*Expr{m}
	}
}
