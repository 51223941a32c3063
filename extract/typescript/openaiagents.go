package typescript

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// OpenAI Agents JS (@openai/agents 0.x): new Agent({ name, instructions,
// tools, handoffs, mcpServers }), tool({ name, description, parameters,
// execute, needsApproval }), agent.asTool({ toolName }), Agent.create,
// the hosted tools (webSearchTool(), fileSearchTool(),
// codeInterpreterTool(), imageGenerationTool(), computerTool(),
// hostedMcpTool({ requireApproval })) and MCP servers (new
// MCPServerStdio / MCPServerStreamableHttp / MCPServerSSE). Approval:
// needsApproval: true on the tool (the run stops with an interruption);
// a function decides per call and gates nothing (fail closed). The
// realtime entry point (@openai/agents/realtime) has RealtimeAgent and the
// same tool().

var openaiModules = []string{"@openai/agents", "@openai/agents-core", "@openai/agents-openai", "@openai/agents/realtime", "@openai/agents-realtime"}

var openaiHosted = []string{"webSearchTool", "fileSearchTool", "codeInterpreterTool", "imageGenerationTool", "computerTool", "hostedMcpTool", "shellTool", "applyPatchTool"}

// OpenAIAgentsAdapter finds OpenAI Agents JS tools, agents and approvals.
func OpenAIAgentsAdapter(f *extract.File) {
	if !openaiFile(f) {
		return // every form below needs the package imported in this file
	}
	for _, c := range f.Calls() {
		e := c.Expr
		opts := e.Arg(0, "")
		switch {
		case memberOf(c.Qual, "tool", openaiModules...):
			exec := objProp(opts, "execute")
			t := &extract.Tool{Name: fwVarName(c, "tool"), Symbol: c.AssignedTo, Framework: extract.FrameworkOpenAIAgents, Kind: extract.ToolFunc,
				Func: fwFunc(f, exec), FuncRef: exec, Ctor: e, Loc: c.Loc, NameLoc: c.Loc}
			if s, ok := objStr(opts, "name"); ok && s != "" {
				t.Name, t.NameLoc = s, objKeyLoc(opts, "name")
			}
			if a := flagApproval(opts, "needsApproval", "needs_approval"); a != nil {
				t.Approvals = append(t.Approvals, a)
			}
			f.AddTool(t)
		case hostedTool(c.Qual):
			t := &extract.Tool{Name: extract.LastDot(c.Qual), Symbol: c.AssignedTo, Framework: extract.FrameworkOpenAIAgents, Kind: extract.ToolPrebuilt,
				Class: c.Qual, Ctor: e, Loc: c.Loc, NameLoc: c.Loc}
			if s, ok := objStr(opts, "serverLabel"); ok && s != "" {
				t.Name = s
			}
			if s, ok := objStr(opts, "requireApproval"); ok && s == "always" {
				t.Approvals = append(t.Approvals, &extract.Approval{Kind: "require_approval", Loc: objKeyLoc(opts, "requireApproval"), All: true, Expr: objProp(opts, "requireApproval")})
			}
			// computerTool, shellTool and applyPatchTool take needsApproval
			// as function tools do.
			if a := flagApproval(opts, "needsApproval", "needs_approval"); a != nil {
				t.Approvals = append(t.Approvals, a)
			}
			f.AddTool(t)
		case c.Method() == "asTool" && e.Recv == nil && strings.HasSuffix(e.Name, ".asTool"):
			recv := strings.TrimSuffix(e.Name, ".asTool")
			if a := f.AgentByVar(recv); a != nil && a.Framework != extract.FrameworkOpenAIAgents {
				continue
			}
			name, ok := objStr(opts, "toolName")
			if !ok || name == "" {
				name = recv
			}
			t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkOpenAIAgents, Kind: extract.ToolAgent, Ctor: e,
				AgentRef: &extract.Expr{Kind: extract.ExprName, Name: recv, Scope: e.Scope, Loc: e.Loc}, Loc: c.Loc, NameLoc: c.Loc}
			if a := flagApproval(opts, "needsApproval", "needs_approval"); a != nil {
				t.Approvals = append(t.Approvals, a)
			}
			f.AddTool(t)
		}
	}
	for _, c := range f.Calls() {
		e := c.Expr
		// A RealtimeAgent (voice) takes the same tools and handoffs; its
		// session runs the tools it calls as a text agent's run does.
		if !memberOf(c.Qual, "Agent", openaiModules...) && !memberOf(c.Qual, "Agent.create", openaiModules...) && !memberOf(c.Qual, "RealtimeAgent", openaiModules...) {
			continue
		}
		opts := e.Arg(0, "")
		a := &extract.Agent{Framework: extract.FrameworkOpenAIAgents, Ctor: "Agent", Loc: c.Loc, NameLoc: objKeyLoc(opts, "name"), Call: e, Var: c.AssignedTo}
		a.Name = fwVarName(c, "Agent")
		if s, ok := objStr(opts, "name"); ok && s != "" {
			a.Name = s
		}
		if tl := objProp(opts, "tools"); tl != nil {
			a.Tools = toolRefs(tl, "")
		}
		if h := objProp(opts, "handoffs"); h != nil {
			a.Handoffs = []*extract.Expr{h}
		}
		if m := objProp(opts, "mcpServers"); m != nil {
			a.MCPServers = []*extract.Expr{m}
		}
		f.AddAgent(a)
	}
}

func hostedTool(q string) bool {
	for _, h := range openaiHosted {
		if memberOf(q, h, openaiModules...) {
			return true
		}
	}
	return false
}

// openaiFile reports a file that imports OpenAI Agents JS: agent.asTool()
// is that framework's only where the file uses it.
func openaiFile(f *extract.File) bool { return imports(f, openaiModules...) }

// imports reports whether the file imports (or requires) one of modules.
func imports(f *extract.File, modules ...string) bool {
	for _, im := range f.Imports {
		for _, m := range modules {
			if im.Module == m {
				return true
			}
		}
	}
	return false
}
