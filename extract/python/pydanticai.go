package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// PydanticAI (pydantic_ai, checked against pydantic-ai 2.62 and the
// repository's main branch, docs/frameworks.md): Agent(model, tools=[...],
// toolsets=[...]); @agent.tool / @agent.tool_plain on a function of an agent
// of this file; Tool(func, name=..., requires_approval=...);
// FunctionToolset(tools=[...]) and @toolset.tool; mcp_servers=[...], the
// pydantic-ai 0.x spelling of toolsets= for MCP servers (MCPServerStdio,
// MCPServerHTTP, MCPServerSSE), which released apps still use. Approvals:
// requires_approval=True on the tool, or a body that raises ApprovalRequired
// unless ctx.tool_call_approved (the run stops with DeferredToolRequests and
// resumes only with the user's DeferredToolResults). A raise under any other
// condition defers only some calls and is no gate (bodygate.go).

func init() {
	adapters = append(adapters, pydanticAgents)
	bodyGates = append(bodyGates, bodyGate{framework: pydanticFW, module: "pydantic_ai", flag: "tool_call_approved", kind: "approval_required",
		detail: "raises ApprovalRequired unless the call is approved", defers: raisesApprovalRequired})
}

const pydanticFW = extract.FrameworkPydanticAI

// pydanticQual reports whether q names pydantic_ai's export `name`
// (pydantic_ai.Tool, pydantic_ai.tools.Tool).
func pydanticQual(q, name string) bool { return extract.QualIs(q, name, "pydantic_ai") }

func pydanticAgents(f *extract.File) {
	toolsets := map[string]*extract.Expr{} // variable -> FunctionToolset(...) call
	for _, c := range f.Calls() {
		e := c.Expr
		if c.HeadKind != extract.HeadImport {
			continue
		}
		switch {
		case pydanticQual(c.Qual, "Agent"):
			a := &extract.Agent{Framework: pydanticFW, Ctor: "Agent", Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "Agent")
			f.AddAgent(a)
		case pydanticQual(c.Qual, "Tool"):
			name, _ := extract.StrArg(e, -1, "name")
			t := wrapperTool(c, pydanticFW, name, e.Arg(0, "function"))
			requiresApproval(t, e)
			f.AddTool(t)
		case pydanticQual(c.Qual, "FunctionToolset") && c.AssignedTo != "":
			toolsets[c.AssignedTo] = e
		}
	}
	// Decorated tools belong to the agent or toolset their decorator names.
	byVar := map[string][]*extract.Tool{}
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			target := d
			if d.Kind == extract.ExprCall {
				target = &extract.Expr{Kind: extract.ExprName, Name: d.Name}
			}
			recv, method, ok := cutLastDot(target.Name)
			if !ok || (method != "tool" && method != "tool_plain") {
				continue
			}
			a := f.AgentByVar(recv)
			if (a == nil || a.Framework != pydanticFW) && toolsets[recv] == nil {
				continue
			}
			t := &extract.Tool{Name: fn.Name, Symbol: fn.Name, Framework: pydanticFW, Kind: extract.ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if d.Kind == extract.ExprCall {
				if s, ok := extract.StrArg(d, -1, "name"); ok && s != "" {
					t.Name = s
				}
				requiresApproval(t, d)
			}
			f.AddTool(t)
			byVar[recv] = append(byVar[recv], t)
		}
	}
	for _, a := range f.Agents {
		if a.Framework != pydanticFW || a.Call == nil {
			continue
		}
		if tl := a.Call.Kwarg("tools"); tl != nil {
			a.Tools = append(a.Tools, extract.ToolRef{Expr: tl})
		}
		for _, t := range byVar[a.Var] {
			a.Tools = append(a.Tools, extract.ToolRef{Tool: t})
		}
		var elems []*extract.Expr
		for _, kw := range []string{"toolsets", "mcp_servers"} {
			ts := extract.Deref(a.Call.Kwarg(kw))
			switch {
			case ts == nil:
			case ts.Kind == extract.ExprList:
				elems = append(elems, ts.Elems...)
			default:
				elems = append(elems, ts)
			}
		}
		for _, el := range elems {
			call := extract.Deref(el)
			if el.Kind == extract.ExprName && toolsets[el.Name] != nil {
				call = toolsets[el.Name]
				for _, t := range byVar[el.Name] {
					a.Tools = append(a.Tools, extract.ToolRef{Tool: t})
				}
			}
			if call != nil && call.Kind == extract.ExprCall && pydanticQual(extract.QualOf(call), "FunctionToolset") {
				if tl := call.Arg(0, "tools"); tl != nil {
					a.Tools = append(a.Tools, extract.ToolRef{Expr: tl})
				}
				continue
			}
			// An MCP server or another toolset: resolved (or failed closed)
			// like any other tool list entry.
			a.Tools = append(a.Tools, extract.ToolRef{Expr: el})
		}
	}
}

// requiresApproval reads requires_approval=True on a tool's decorator or
// Tool(...) call.
func requiresApproval(t *extract.Tool, e *extract.Expr) {
	if v, on := truthyArg(e, "requires_approval"); on {
		t.Approvals = append(t.Approvals, &extract.Approval{Kind: "requires_approval", Loc: v.Loc, All: true, Expr: v})
	}
}

func cutLastDot(s string) (string, string, bool) {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// raisesApprovalRequired: the block's first statement raises pydantic_ai's
// ApprovalRequired (bare or called), imported as such: a class of the same
// name from elsewhere is not the framework's deferral.
func raisesApprovalRequired(sc *extract.Scope, block *syntax.Node, src []byte) bool {
	if block == nil || len(block.NamedChildren()) == 0 {
		return false
	}
	st := block.NamedChildren()[0]
	if st.Type() != "raise_statement" {
		return false
	}
	txt := strings.TrimSpace(strings.TrimPrefix(st.Content(src), "raise"))
	name, _, _ := strings.Cut(txt, "(")
	q, imported := sc.Qualify(strings.TrimSpace(name))
	return imported && pydanticQual(q, "ApprovalRequired")
}
