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
		case mafHostedFactories[c.Method()] && (isMAF(c.Qual) && (c.HeadKind == extract.HeadObject || c.HeadKind == extract.HeadImport) ||
			c.HeadKind == extract.HeadData && mafFile(f)):
			// On a client acg could not type (a parameter, an attribute)
			// in a file that imports the framework: the factory names are
			// the framework's own.
			mafClientTool(f, c)
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

// mafFile reports a file that imports agent_framework.
func mafFile(f *extract.File) bool {
	for _, im := range f.Imports {
		if isMAF(im.Module) {
			return true
		}
	}
	return false
}

// mafHostedFactories are the chat clients' tool factories
// (OpenAIChatClient().get_mcp_tool(...), AnthropicClient.get_shell_tool(...),
// agent_framework 1.2x): hosted tools the provider runs, or with func= a
// local function declared to the provider as its shell.
var mafHostedFactories = map[string]bool{"get_mcp_tool": true, "get_web_search_tool": true, "get_code_interpreter_tool": true,
	"get_file_search_tool": true, "get_image_generation_tool": true, "get_shell_tool": true}

// mafClientTool reads a client's tool factory call: get_mcp_tool(name=,
// url=, approval_mode=, allowed_tools=) is a hosted MCP server, known by
// its URL; get_shell_tool(func=f, approval_mode=) runs f (a local tool like
// @tool); every other factory is a hosted tool the catalog knows by name.
func mafClientTool(f *extract.File, c *extract.Call) {
	e := c.Expr
	switch c.Method() {
	case "get_mcp_tool":
		name, _ := extract.StrArg(e, -1, "name")
		s := clientServer(f, c, mafFW, name)
		url, _ := extract.Deref(e.Kwarg("url")).StrValue()
		s.Launch = extract.NewLaunch("http", "", nil, url, nil, nil)
		mafServerApproval(s, e.Kwarg("approval_mode"))
		if allowed := e.Kwarg("allowed_tools"); allowed != nil {
			if names := extract.Strings(allowed); names != nil {
				s.Allowed = names
			}
		}
		f.Servers = append(f.Servers, s)
		return
	case "get_shell_tool":
		if fn := e.Kwarg("func"); fn != nil {
			name, _ := extract.StrArg(e, -1, "name")
			t := wrapperTool(c, mafFW, name, fn)
			if base := f.ToolBySymbol(fn.Name); base != nil && base != t && e.Kwarg("approval_mode") == nil {
				// func=run_bash, already a @tool(approval_mode=...): the
				// factory keeps that tool and its approval mode.
				t.Approvals = append(t.Approvals, base.Approvals...)
			}
			mafApproval(t, e)
			f.AddTool(t)
			return
		}
	}
	t := &extract.Tool{Name: strings.TrimSuffix(strings.TrimPrefix(c.Method(), "get_"), "_tool"), Symbol: c.AssignedTo, Framework: mafFW,
		Kind: extract.ToolPrebuilt, Class: "agent_framework." + c.Method(), Ctor: e, Loc: c.Loc, NameLoc: c.Loc}
	mafApproval(t, e)
	f.AddTool(t)
}

// mafServerApproval reads an MCP tool's approval_mode: "always_require"
// gates every tool; {"always_require_approval": [names]} gates those;
// {"never_require_approval": [names]} gates every other tool.
func mafServerApproval(s *extract.MCPServer, v *extract.Expr) {
	if v == nil {
		return
	}
	d := extract.Deref(v)
	if str, ok := d.StrValue(); ok {
		if str == "always_require" {
			s.Approvals = append(s.Approvals, &extract.Approval{Kind: "approval_mode", Loc: v.Loc, All: true, Expr: v})
		}
		return
	}
	if d == nil || d.Kind != extract.ExprDict {
		return
	}
	for i, k := range d.Keys {
		switch key, _ := k.StrValue(); key {
		case "always_require_approval":
			s.Approvals = append(s.Approvals, &extract.Approval{Kind: "approval_mode", Loc: v.Loc, Tools: extract.Strings(d.Elems[i]), Expr: v})
		case "never_require_approval":
			if names := extract.Strings(d.Elems[i]); names != nil {
				s.Approvals = append(s.Approvals, &extract.Approval{Kind: "approval_mode", Loc: v.Loc, All: true, Except: names, Expr: v})
			}
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
	mafServerApproval(s, e.Kwarg("approval_mode"))
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
