package typescript

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Vercel AI SDK (`ai` 5-7): tool({ description, inputSchema | parameters,
// execute, needsApproval }) passed in `tools: { name: tool }` to
// generateText / streamText or to an agent class (ToolLoopAgent, also
// exported as Experimental_Agent). The model sees a tool by its key in
// `tools`. Approval: the current major's `toolApproval` option of the call
// or agent ({ sendEmail: "user-approval" }: that tool asks the user; a
// function decides per call and may pass calls on its own, so it gates
// nothing: fail closed) and the per-tool `needsApproval: true` of the
// earlier majors. The agent is the call site: its name is the function
// around the call (the exported function a request runs), else the
// variable it is assigned to.

var vercelModules = []string{"ai"}

// VercelAIAdapter finds the AI SDK's tools, agents and approvals.
func VercelAIAdapter(f *extract.File) {
	if !imports(f, vercelModules...) {
		return // every form below needs the package imported in this file
	}
	byCall := map[*extract.Call]*extract.Tool{}
	// A tool written as a value of an object literal that a function
	// returns or a variable holds (return { fetchPage: tool({...}) }, the
	// registry shape of tool factories) is named by its key, as the model
	// sees it once the object is the `tools` option.
	keyed := keyedValues(f)
	for _, c := range f.Calls() {
		opts := c.Expr.Arg(0, "")
		exec := objProp(opts, "execute")
		if !memberOf(c.Qual, "tool", vercelModules...) && !memberOf(c.Qual, "dynamicTool", vercelModules...) &&
			!(providerTool(c.Qual) && exec != nil) {
			continue
		}
		t := &extract.Tool{Name: factoryToolName(c), Symbol: c.AssignedTo, Framework: extract.FrameworkVercelAI, Kind: extract.ToolFunc,
			Func: fwFunc(f, exec), FuncRef: exec, Ctor: c.Expr, Loc: c.Loc, NameLoc: c.Loc}
		if key := keyed[c]; key != nil && c.AssignedTo == "" {
			t.Name, t.NameLoc = key.Str, key.Loc
		}
		if a := flagApproval(opts, "needsApproval", "needs_approval"); a != nil {
			t.Approvals = append(t.Approvals, a)
		}
		f.AddTool(t)
		byCall[c] = t
	}
	for _, c := range f.Calls() {
		var opts *extract.Expr
		ctor := extract.LastDot(c.Qual)
		switch {
		case memberOf(c.Qual, "generateText", vercelModules...), memberOf(c.Qual, "streamText", vercelModules...),
			memberOf(c.Qual, "generateObject", vercelModules...), memberOf(c.Qual, "streamObject", vercelModules...):
			opts = c.Expr.Arg(0, "")
		case memberOf(c.Qual, "ToolLoopAgent", vercelModules...), memberOf(c.Qual, "Experimental_Agent", vercelModules...),
			memberOf(c.Qual, "Agent", vercelModules...):
			opts = c.Expr.Arg(0, "")
		default:
			continue
		}
		tools := objProp(opts, "tools")
		if tools == nil {
			continue // a plain completion: no tools, no agent
		}
		a := &extract.Agent{Framework: extract.FrameworkVercelAI, Ctor: ctor, Loc: c.Loc, NameLoc: c.Loc, Call: c.Expr, Var: c.AssignedTo}
		a.Name = agentName(c, ctor)
		a.Tools = toolRefs(tools, "")
		// A tool written in place (tools: { send: tool({...}) }) is named by
		// its key, as the model sees it.
		if d := extract.Deref(tools); d != nil && d.Kind == extract.ExprDict {
			for i, v := range d.Elems {
				if v != nil && v.Call != nil && i < len(d.Keys) && d.Keys[i].Kind == extract.ExprStr {
					if t := byCall[v.Call]; t != nil && t.Symbol == "" {
						t.Name, t.NameLoc = d.Keys[i].Str, d.Keys[i].Loc
					}
				}
			}
		}
		a.Approvals = append(a.Approvals, toolApproval(opts, tools)...)
		// The only tools the model may call in this run; a list acg
		// cannot read (computed per request) leaves every tool.
		a.ActiveTools = activeTools(opts)
		f.AddAgent(a)
	}
}

// providerTool reports whether a call builds a provider-defined tool of an
// AI SDK provider package (openai.tools.localShell({...}) from
// "@ai-sdk/openai", anthropic.tools.bash_20250124(...)). One given an
// execute callback runs in the application, like tool({ execute }), and
// is read the same way; one without is run by the provider, and the
// catalog labels it (effects/catalog/tools.yaml).
func providerTool(qual string) bool {
	return strings.HasPrefix(qual, "@ai-sdk/") && strings.Contains(qual, ".tools.")
}

// agentName is the exported function around a call (the agent a request
// runs), else the variable the call's result is assigned to.
func agentName(c *extract.Call, ctor string) string {
	if c.Func != nil && c.Func.Name != "<module>" && c.Func.Parent == nil {
		return c.Func.Name
	}
	return fwVarName(c, ctor)
}

// toolApproval reads the toolApproval option: a map from tool key to
// "user-approval" (gated), "approved"/"not-applicable"/"denied" (not
// asked), or a function (decides per call: conditional, gates nothing).
// A whole-option function or a computed value is conditional too.
func toolApproval(opts, tools *extract.Expr) []*extract.Approval {
	v := objProp(opts, "toolApproval")
	if v == nil {
		return nil
	}
	d := extract.Deref(v)
	loc := objKeyLoc(opts, "toolApproval")
	if s, ok := d.StrValue(); ok {
		if s == "user-approval" {
			return []*extract.Approval{{Kind: "tool_approval", Loc: loc, All: true, Expr: v}}
		}
		return nil
	}
	if d == nil || d.Kind != extract.ExprDict || d.Spread {
		return []*extract.Approval{{Kind: "tool_approval", Loc: loc, Detail: "conditional", Expr: v}}
	}
	var out []*extract.Approval
	for i, k := range d.Keys {
		if k == nil || k.Kind != extract.ExprStr || i >= len(d.Elems) {
			continue
		}
		names := []string{k.Str}
		if tv := objProp(tools, k.Str); tv != nil && tv.Kind == extract.ExprName && tv.Name != k.Str {
			names = append(names, tv.Name) // tools: { send_email: sendEmail }
		}
		val := extract.Deref(d.Elems[i])
		if s, ok := val.StrValue(); ok {
			if s == "user-approval" {
				out = append(out, &extract.Approval{Kind: "tool_approval", Loc: k.Loc, Tools: names, Expr: d.Elems[i]})
			}
			continue
		}
		// Decided per call: recorded, gating nothing (fail closed).
		out = append(out, &extract.Approval{Kind: "tool_approval", Loc: k.Loc, Detail: "conditional", Expr: d.Elems[i]})
	}
	return out
}

// factoryToolName names a tool({...}) call: after the variable it is
// assigned to; a tool a named function returns (a factory: export const
// createDocument = (deps) => tool({...})) after that function, which is
// the key a tools object usually gives it (tools: { createDocument:
// createDocument(deps) }), so messages and fixes name it as the code does.
func factoryToolName(c *extract.Call) string {
	if c.AssignedTo == "" && c.Returned && c.Func != nil && c.Func.Parent == nil {
		n := c.Func.Name
		if i := strings.LastIndexByte(n, '.'); i >= 0 {
			n = n[i+1:]
		}
		if n != "" && !strings.HasPrefix(n, "<") {
			return n
		}
	}
	return fwVarName(c, "tool")
}
