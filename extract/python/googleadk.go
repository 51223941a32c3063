package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// Google Agent Development Kit (google.adk, checked against google-adk
// 2.13.0, docs/frameworks.md): Agent / LlmAgent(name=, tools=[...],
// sub_agents=[...]) whose sub-agents the model can transfer control to;
// SequentialAgent / ParallelAgent / LoopAgent running their sub-agents as
// steps; plain functions as tools; FunctionTool(func, require_confirmation=);
// AgentTool(agent=); McpToolset(connection_params=..., tool_filter=,
// require_confirmation=). Approvals: require_confirmation=True, or a body that
// begins `if not tool_context.tool_confirmation:
// tool_context.request_confirmation(...); return ...` (bodygate.go). A
// callable require_confirmation decides per call and gates nothing.

func init() {
	adapters = append(adapters, adkAgents)
	bodyGates = append(bodyGates, bodyGate{framework: adkFW, module: "google.adk", flag: "tool_confirmation", kind: "request_confirmation",
		detail: "asks the user with tool_context.request_confirmation before it acts", defers: requestsConfirmation})
}

const adkFW = extract.FrameworkGoogleADK

func isADK(q string) bool { return strings.HasPrefix(q, "google.adk.") }

func adkAgents(f *extract.File) {
	for _, c := range f.Calls() {
		if c.HeadKind != extract.HeadImport || !isADK(c.Qual) {
			continue
		}
		e := c.Expr
		switch extract.LastDot(c.Qual) {
		case "Agent", "LlmAgent":
			a := &extract.Agent{Framework: adkFW, Ctor: extract.LastDot(c.Qual), Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "Agent")
			if tl := e.Kwarg("tools"); tl != nil {
				a.Tools = []extract.ToolRef{{Expr: tl}}
			}
			// The model transfers control to a sub-agent (transfer_to_agent):
			// a handoff, the sub-agent's tools act on this conversation.
			if sa := e.Kwarg("sub_agents"); sa != nil {
				a.Handoffs = []*extract.Expr{sa}
			}
			f.AddAgent(a)
		case "SequentialAgent", "ParallelAgent", "LoopAgent":
			a := &extract.Agent{Framework: adkFW, Ctor: extract.LastDot(c.Qual), Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, extract.LastDot(c.Qual))
			if sa := e.Kwarg("sub_agents"); sa != nil {
				a.SubAgents = []*extract.Expr{sa}
			}
			f.AddAgent(a)
		case "FunctionTool", "LongRunningFunctionTool":
			t := wrapperTool(c, adkFW, "", e.Arg(0, "func"))
			adkConfirmation(t, e)
			f.AddTool(t)
		case "from_defaults", "from_function":
			// A FunctionTool built through a factory classmethod
			// (FunctionTool.from_defaults(func=f, name=...), the LlamaIndex
			// spelling, written against ADK's class): whatever the method,
			// the call names the function it wraps, and reading that
			// function beats failing closed on an unknown prebuilt tool.
			if extract.LastDot(strings.TrimSuffix(c.Qual, "."+extract.LastDot(c.Qual))) != "FunctionTool" {
				continue
			}
			fref := e.Kwarg("func")
			if fref == nil {
				fref = e.Arg(0, "fn")
			}
			if fref == nil {
				continue
			}
			name, _ := extract.StrArg(e, -1, "name")
			t := wrapperTool(c, adkFW, name, fref)
			adkConfirmation(t, e)
			f.AddTool(t)
		case "AgentTool":
			ref := e.Arg(0, "agent")
			if ref == nil {
				continue
			}
			name := ref.Name
			t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: adkFW, Kind: extract.ToolAgent, Ctor: e,
				AgentRef: ref, Loc: c.Loc, NameLoc: c.Loc}
			f.AddTool(t)
			// Built in a function's body, it is run there (run_async): the
			// function runs the agent, whose tools carry the effects.
			c.BuildsAgent = true
		case "McpToolset", "MCPToolset":
			adkToolset(f, c)
		}
	}
}

// adkConfirmation reads require_confirmation on FunctionTool or McpToolset.
func adkConfirmation(t *extract.Tool, e *extract.Expr) {
	v := e.Kwarg("require_confirmation")
	if v == nil {
		return
	}
	if on, known := extract.Deref(v).Truthy(); known && extract.Deref(v).Kind == extract.ExprBool {
		if on {
			t.Approvals = append(t.Approvals, &extract.Approval{Kind: "require_confirmation", Loc: v.Loc, All: true, Expr: v})
		}
		return
	}
	// A callable decides per call from the arguments: no gate.
	t.Approvals = append(t.Approvals, &extract.Approval{Kind: "require_confirmation", Loc: v.Loc, Detail: "conditional", Expr: v})
}

// adkToolset makes an MCP server of McpToolset(connection_params=...):
// StdioConnectionParams(server_params=StdioServerParameters(command=, args=)),
// a bare StdioServerParameters, or SseConnectionParams /
// StreamableHTTPConnectionParams(url=).
func adkToolset(f *extract.File, c *extract.Call) {
	e := c.Expr
	cp := extract.Deref(e.Kwarg("connection_params"))
	params, transport := cp, "stdio"
	if cp != nil && cp.Kind == extract.ExprCall {
		switch n := extract.LastDot(cp.Name); {
		case strings.HasPrefix(n, "Stdio") && cp.Kwarg("server_params") != nil:
			params = cp.Kwarg("server_params")
		case strings.HasPrefix(n, "Sse"):
			transport = "sse"
		case strings.HasPrefix(n, "StreamableHTTP"):
			transport = "http"
		}
	}
	s := clientServer(f, c, adkFW, "")
	s.Launch = launchFromParams(params, transport)
	if v, on := truthyArg(e, "require_confirmation"); on && extract.Deref(v).Kind == extract.ExprBool {
		clientApprovals(s, v)
	}
	clientFilter(s, e.Kwarg("tool_filter"))
	f.Servers = append(f.Servers, s)
}

// requestsConfirmation: the block calls <x>.request_confirmation(...) and
// returns (the tool stops until the user answers).
func requestsConfirmation(_ *extract.Scope, block *syntax.Node, src []byte) bool {
	if block == nil {
		return false
	}
	asks, returns := false, false
	for _, st := range block.NamedChildren() {
		txt := st.Content(src)
		switch st.Type() {
		case "expression_statement":
			if strings.Contains(txt, ".request_confirmation(") {
				asks = true
			}
		case "return_statement":
			returns = asks
		}
	}
	return asks && returns
}
