package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

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

const mafFW = extract.FrameworkAgentFramework

func isMAF(q string) bool { return q == "agent_framework" || strings.HasPrefix(q, "agent_framework.") }

// mafApproval reads approval_mode on a tool decorator or constructor.
func mafApproval(t *extract.Tool, e *extract.Expr) {
	v := e.Kwarg("approval_mode")
	if v == nil {
		return
	}
	if s, ok := extract.Deref(v).StrValue(); ok {
		if s == "always_require" {
			t.Approvals = append(t.Approvals, &extract.Approval{Kind: "approval_mode", Loc: v.Loc, All: true, Expr: v})
		}
		return
	}
	t.Approvals = append(t.Approvals, &extract.Approval{Kind: "approval_mode", Loc: v.Loc, Detail: "conditional", Expr: v})
}

func mafTools(f *extract.File) {
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			q, call := decoratorTarget(d)
			if !isMAF(q) || extract.LastDot(q) != "tool" {
				continue
			}
			t := &extract.Tool{Name: fn.Name, Symbol: fn.Name, Framework: mafFW, Kind: extract.ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if call != nil {
				if s, ok := extract.StrArg(call, -1, "name"); ok && s != "" {
					t.Name = s
				}
				mafApproval(t, call)
			}
			f.AddTool(t)
		}
	}
	for _, c := range f.Calls() {
		e := c.Expr
		switch {
		case c.HeadKind == extract.HeadImport && isMAF(c.Qual) && (extract.LastDot(c.Qual) == "tool" || extract.LastDot(c.Qual) == "FunctionTool"):
			fref := e.Arg(0, "func")
			if fref == nil {
				continue
			}
			name, _ := extract.StrArg(e, -1, "name")
			t := wrapperTool(c, mafFW, name, fref)
			mafApproval(t, e)
			f.AddTool(t)
		case c.HeadKind == extract.HeadImport && isMAF(c.Qual) && strings.HasPrefix(extract.LastDot(c.Qual), "MCP") && strings.HasSuffix(c.Qual, "Tool"):
			mafMCP(f, c)
		case c.Method() == "as_tool" && c.HeadKind != extract.HeadImport && e.Recv == nil:
			recv := e.Name[:len(e.Name)-len(".as_tool")]
			if a := f.AgentByVar(recv); a == nil || a.Framework != mafFW {
				continue // the OpenAI SDK's as_tool, or unknown (openai.go)
			}
			name, _ := extract.StrArg(e, -1, "name")
			if name == "" {
				name = recv
			}
			t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: mafFW, Kind: extract.ToolAgent, Ctor: e,
				AgentRef: &extract.Expr{Kind: extract.ExprName, Name: recv, Scope: e.Scope, Loc: e.Loc}, Loc: c.Loc, NameLoc: c.Loc}
			mafApproval(t, e)
			f.AddTool(t)
		}
	}
}

// mafMCP makes a server of MCPStdioTool(name=, command=, args=, env=) or an
// HTTP / websocket one (url=), with its approval_mode and allowed_tools.
func mafMCP(f *extract.File, c *extract.Call) {
	e := c.Expr
	transport := "stdio"
	switch extract.LastDot(c.Qual) {
	case "MCPStreamableHTTPTool":
		transport = "http"
	case "MCPWebsocketTool":
		transport = "ws"
	}
	name, _ := extract.StrArg(e, 0, "name")
	s := clientServer(f, c, mafFW, name)
	s.Launch = launchFromParams(e, transport)
	if v := e.Kwarg("approval_mode"); v != nil {
		d := extract.Deref(v)
		if str, ok := d.StrValue(); ok {
			if str == "always_require" {
				s.Approvals = append(s.Approvals, &extract.Approval{Kind: "approval_mode", Loc: v.Loc, All: true, Expr: v})
			}
		} else if d != nil && d.Kind == extract.ExprDict {
			for i, k := range d.Keys {
				if key, _ := k.StrValue(); key == "always_require_approval" {
					s.Approvals = append(s.Approvals, &extract.Approval{Kind: "approval_mode", Loc: v.Loc, Tools: extract.Strings(d.Elems[i]), Expr: v})
				}
			}
		}
	}
	if allowed := e.Kwarg("allowed_tools"); allowed != nil {
		clientFilter(s, allowed)
	}
	f.Servers = append(f.Servers, s)
}

func mafAgents(f *extract.File) {
	for _, c := range f.Calls() {
		e := c.Expr
		ctor := ""
		switch {
		case c.HeadKind == extract.HeadImport && isMAF(c.Qual) && (extract.LastDot(c.Qual) == "Agent" || extract.LastDot(c.Qual) == "ChatAgent"):
			ctor = extract.LastDot(c.Qual)
		case c.Method() == "as_agent" && c.HeadKind == extract.HeadObject && isMAF(c.Qual):
			// OpenAIChatClient().as_agent(...) / client.as_agent(...) on a
			// client built from agent_framework.
			ctor = "as_agent"
		default:
			continue
		}
		a := &extract.Agent{Framework: mafFW, Ctor: ctor, Loc: c.Loc, Call: e, Var: c.AssignedTo}
		a.Name = agentName(e, c, "Agent")
		if tl := e.Kwarg("tools"); tl != nil {
			a.Tools = []extract.ToolRef{{Expr: tl}}
		}
		f.AddAgent(a)
	}
}
