package extract

import "strings"

// Microsoft Agent Framework (agent_framework, checked against the
// microsoft/agent-framework repository's python/packages/core at 1.13.0,
// docs/frameworks.md): Agent(client=..., name=, tools=[...]) (and the older
// ChatAgent(chat_client=...)), <client>.as_agent(name=, tools=[...]);
// @tool / tool(func) / FunctionTool(func=) with approval_mode;
// <agent>.as_tool(approval_mode=); MCPStdioTool / MCPStreamableHTTPTool /
// MCPWebsocketTool(name=, command=, args= | url=, approval_mode=) as tools.
// approval_mode="always_require" is an approval; "never_require" (the
// default) is none; an MCP tool's {"always_require_approval": [names]} gates
// the tools it names.

// Agents first: an as_tool call belongs here only when its receiver is
// an agent of this framework.
func init() { adapters = append(adapters, mafAgents, mafTools) }

const mafFW = "agent-framework"

func isMAF(q string) bool { return q == "agent_framework" || strings.HasPrefix(q, "agent_framework.") }

// mafApproval reads approval_mode on a tool decorator or constructor.
func mafApproval(t *Tool, e *Expr) {
	v := e.Kwarg("approval_mode")
	if v == nil {
		return
	}
	if s, ok := Deref(v).StrValue(); ok {
		if s == "always_require" {
			t.Approvals = append(t.Approvals, &Approval{Kind: "approval_mode", Loc: v.Loc, All: true, Expr: v})
		}
		return
	}
	t.Approvals = append(t.Approvals, &Approval{Kind: "approval_mode", Loc: v.Loc, Detail: "conditional", Expr: v})
}

func mafTools(f *File) {
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			q, call := decoratorTarget(d)
			if !isMAF(q) || lastDot(q) != "tool" {
				continue
			}
			t := &Tool{Name: fn.Name, Symbol: fn.Name, Framework: mafFW, Kind: ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if call != nil {
				if s, ok := StrArg(call, -1, "name"); ok && s != "" {
					t.Name = s
				}
				mafApproval(t, call)
			}
			f.addTool(t)
		}
	}
	for _, c := range f.calls() {
		e := c.Expr
		switch {
		case c.HeadKind == HeadImport && isMAF(c.Qual) && (lastDot(c.Qual) == "tool" || lastDot(c.Qual) == "FunctionTool"):
			fref := e.Arg(0, "func")
			if fref == nil {
				continue
			}
			name, _ := StrArg(e, -1, "name")
			t := wrapperTool(c, mafFW, name, fref)
			mafApproval(t, e)
			f.addTool(t)
		case c.HeadKind == HeadImport && isMAF(c.Qual) && strings.HasPrefix(lastDot(c.Qual), "MCP") && strings.HasSuffix(c.Qual, "Tool"):
			mafMCP(f, c)
		case c.Method() == "as_tool" && c.HeadKind != HeadImport && e.Recv == nil:
			recv := e.Name[:len(e.Name)-len(".as_tool")]
			if a := f.AgentByVar(recv); a == nil || a.Framework != mafFW {
				continue // the OpenAI SDK's as_tool, or unknown (openai.go)
			}
			name, _ := StrArg(e, -1, "name")
			if name == "" {
				name = recv
			}
			t := &Tool{Name: name, Symbol: c.AssignedTo, Framework: mafFW, Kind: ToolAgent, Ctor: e,
				AgentRef: &Expr{Kind: ExprName, Name: recv, Scope: e.Scope, Loc: e.Loc}, Loc: c.Loc, NameLoc: c.Loc}
			mafApproval(t, e)
			f.addTool(t)
		}
	}
}

// mafMCP makes a server of MCPStdioTool(name=, command=, args=, env=) or an
// HTTP / websocket one (url=), with its approval_mode and allowed_tools.
func mafMCP(f *File, c *Call) {
	e := c.Expr
	transport := "stdio"
	switch lastDot(c.Qual) {
	case "MCPStreamableHTTPTool":
		transport = "http"
	case "MCPWebsocketTool":
		transport = "ws"
	}
	name, _ := StrArg(e, 0, "name")
	s := f.clientServer(c, mafFW, name)
	s.Launch = launchFromParams(e, transport)
	if v := e.Kwarg("approval_mode"); v != nil {
		d := Deref(v)
		if str, ok := d.StrValue(); ok {
			if str == "always_require" {
				s.Approvals = append(s.Approvals, &Approval{Kind: "approval_mode", Loc: v.Loc, All: true, Expr: v})
			}
		} else if d != nil && d.Kind == ExprDict {
			for i, k := range d.Keys {
				if key, _ := k.StrValue(); key == "always_require_approval" {
					s.Approvals = append(s.Approvals, &Approval{Kind: "approval_mode", Loc: v.Loc, Tools: Strings(d.Elems[i]), Expr: v})
				}
			}
		}
	}
	if allowed := e.Kwarg("allowed_tools"); allowed != nil {
		clientFilter(s, allowed)
	}
	f.Servers = append(f.Servers, s)
}

func mafAgents(f *File) {
	for _, c := range f.calls() {
		e := c.Expr
		ctor := ""
		switch {
		case c.HeadKind == HeadImport && isMAF(c.Qual) && (lastDot(c.Qual) == "Agent" || lastDot(c.Qual) == "ChatAgent"):
			ctor = lastDot(c.Qual)
		case c.Method() == "as_agent" && c.HeadKind == HeadObject && isMAF(c.Qual):
			// OpenAIChatClient().as_agent(...) / client.as_agent(...) on a
			// client built from agent_framework.
			ctor = "as_agent"
		default:
			continue
		}
		a := &Agent{Framework: mafFW, Ctor: ctor, Loc: c.Loc, Call: e, Var: c.AssignedTo}
		a.Name = agentName(e, c, "Agent")
		if tl := e.Kwarg("tools"); tl != nil {
			a.Tools = []ToolRef{{Expr: tl}}
		}
		f.addAgent(a)
	}
}
