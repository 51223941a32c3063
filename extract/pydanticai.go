package extract

import (
	"strings"

	"github.com/acg-dev/acg/extract/syntax"
)

// PydanticAI (pydantic_ai, checked against pydantic-ai 2.62 and the
// repository's main branch, docs/frameworks.md): Agent(model, tools=[...],
// toolsets=[...]); @agent.tool / @agent.tool_plain on a function of an agent
// of this file; Tool(func, name=..., requires_approval=...);
// FunctionToolset(tools=[...]) and @toolset.tool. Approvals:
// requires_approval=True on the tool, or a body that raises ApprovalRequired
// unless ctx.tool_call_approved (the run stops with DeferredToolRequests and
// resumes only with the user's DeferredToolResults). A raise under any other
// condition defers only some calls and is no gate (bodygate.go).

func init() {
	adapters = append(adapters, pydanticAgents)
	bodyGates = append(bodyGates, bodyGate{framework: pydanticFW, module: "pydantic_ai", flag: "tool_call_approved", kind: "approval_required",
		detail: "raises ApprovalRequired unless the call is approved", defers: raisesApprovalRequired})
}

const pydanticFW = "pydantic-ai"

// pydanticQual reports whether q names pydantic_ai's export `name`
// (pydantic_ai.Tool, pydantic_ai.tools.Tool).
func pydanticQual(q, name string) bool { return qualIs(q, name, "pydantic_ai") }

func pydanticAgents(f *File) {
	toolsets := map[string]*Expr{} // variable -> FunctionToolset(...) call
	for _, c := range f.calls() {
		e := c.Expr
		if c.HeadKind != HeadImport {
			continue
		}
		switch {
		case pydanticQual(c.Qual, "Agent"):
			a := &Agent{Framework: pydanticFW, Ctor: "Agent", Loc: c.Loc, Call: e, Var: c.AssignedTo}
			a.Name = agentName(e, c, "Agent")
			f.addAgent(a)
		case pydanticQual(c.Qual, "Tool"):
			name, _ := StrArg(e, -1, "name")
			t := wrapperTool(c, pydanticFW, name, e.Arg(0, "function"))
			requiresApproval(t, e)
			f.addTool(t)
		case pydanticQual(c.Qual, "FunctionToolset") && c.AssignedTo != "":
			toolsets[c.AssignedTo] = e
		}
	}
	// Decorated tools belong to the agent or toolset their decorator names.
	byVar := map[string][]*Tool{}
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			target := d
			if d.Kind == ExprCall {
				target = &Expr{Kind: ExprName, Name: d.Name}
			}
			recv, method, ok := cutLastDot(target.Name)
			if !ok || (method != "tool" && method != "tool_plain") {
				continue
			}
			a := f.AgentByVar(recv)
			if (a == nil || a.Framework != pydanticFW) && toolsets[recv] == nil {
				continue
			}
			t := &Tool{Name: fn.Name, Symbol: fn.Name, Framework: pydanticFW, Kind: ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if d.Kind == ExprCall {
				if s, ok := StrArg(d, -1, "name"); ok && s != "" {
					t.Name = s
				}
				requiresApproval(t, d)
			}
			f.addTool(t)
			byVar[recv] = append(byVar[recv], t)
		}
	}
	for _, a := range f.Agents {
		if a.Framework != pydanticFW || a.Call == nil {
			continue
		}
		if tl := a.Call.Kwarg("tools"); tl != nil {
			a.Tools = append(a.Tools, ToolRef{Expr: tl})
		}
		for _, t := range byVar[a.Var] {
			a.Tools = append(a.Tools, ToolRef{Tool: t})
		}
		ts := Deref(a.Call.Kwarg("toolsets"))
		if ts == nil {
			continue
		}
		elems := []*Expr{ts}
		if ts.Kind == ExprList {
			elems = ts.Elems
		}
		for _, el := range elems {
			call := Deref(el)
			if el.Kind == ExprName && toolsets[el.Name] != nil {
				call = toolsets[el.Name]
				for _, t := range byVar[el.Name] {
					a.Tools = append(a.Tools, ToolRef{Tool: t})
				}
			}
			if call != nil && call.Kind == ExprCall && pydanticQual(QualOf(call), "FunctionToolset") {
				if tl := call.Arg(0, "tools"); tl != nil {
					a.Tools = append(a.Tools, ToolRef{Expr: tl})
				}
				continue
			}
			// An MCP server or another toolset: resolved (or failed closed)
			// like any other tool list entry.
			a.Tools = append(a.Tools, ToolRef{Expr: el})
		}
	}
}

// requiresApproval reads requires_approval=True on a tool's decorator or
// Tool(...) call.
func requiresApproval(t *Tool, e *Expr) {
	if v, on := truthyArg(e, "requires_approval"); on {
		t.Approvals = append(t.Approvals, &Approval{Kind: "requires_approval", Loc: v.Loc, All: true, Expr: v})
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
func raisesApprovalRequired(sc *Scope, block *syntax.Node, src []byte) bool {
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
