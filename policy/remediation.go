package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// remediation names the concrete gate to add for each ungated action, in
// the framework of the agent and the tool: one sentence per kind of gate,
// naming every tool it is for (an agent that reaches hundreds of action
// tools through a handoff chain gets one sentence per gate kind, not one
// per tool).
func remediation(g *capgraph.Graph, a *capgraph.Agent, actions []leg) string {
	return remediationWith(g, a, actions, nil)
}

// gateMemo keeps the gate sentences made for (owner, tool, grant,
// evidence): a check that writes many remediations asks for the same ones.
type gateMemo map[gateKey]gateSentence

type gateKey struct {
	owner *capgraph.Agent
	tool  *capgraph.Tool
	grant *capgraph.Grant
	res   *effects.Result
}

type gateSentence struct {
	text string
	name string // the tool, when text has toolSlot for it
}

func (m gateMemo) of(owner *capgraph.Agent, t *capgraph.Tool, u capgraph.Use, res *effects.Result) gateSentence {
	k := gateKey{owner, t, nil, res}
	if len(u.Grants) > 0 {
		k.grant = &u.Grants[0]
	}
	if gs, ok := m[k]; ok {
		return gs
	}
	// The gate with the tool left out: where it names the tool once, in
	// words, tools that share the sentence share the gate.
	slotted := *t
	slotted.Name = toolSlot
	gs := gateSentence{gateFor(owner, &slotted, u, res), t.Name}
	if strings.Count(gs.text, toolSlot) != 1 || strings.Contains(gs.text, strconv.Quote(toolSlot)) {
		// named in code (a quoted key, a call's argument): said per tool
		gs = gateSentence{gateFor(owner, t, u, res), ""}
	}
	if m != nil {
		m[k] = gs
	}
	return gs
}

func remediationWith(g *capgraph.Graph, a *capgraph.Agent, actions []leg, gates gateMemo) string {
	type group struct {
		sentence string // with toolSlot where the tools go
		names    []string
		has      map[string]bool // names, as a set: a rule-of-two finding may list thousands of tools
	}
	var groups []*group
	byText := map[string]*group{}
	seen := map[string]bool{}
	for _, l := range actions {
		t := l.r.Tool
		if seen[t.ID] {
			continue
		}
		seen[t.ID] = true
		owner := a
		if len(l.r.Via) > 0 {
			if o := g.Agents[l.r.Via[len(l.r.Via)-1]]; o != nil {
				owner = o
			}
		}
		// One setting that lets every tool run without asking is one fix.
		gs := gates.of(owner, t, l.r.Use, l.res)
		p, name := gs.text, gs.name
		grp := byText[p]
		if grp == nil {
			grp = &group{sentence: p, has: map[string]bool{}}
			byText[p] = grp
			groups = append(groups, grp)
		}
		if name != "" && !grp.has[name] { // tools of one name in two files: one fix to say
			grp.has[name] = true
			grp.names = append(grp.names, name)
		}
	}
	if len(groups) == 0 {
		return "Require human approval before the outward action, or remove one of the three legs from the agent's reach."
	}
	parts := make([]string, 0, len(groups))
	for _, grp := range groups {
		if len(grp.names) == 0 {
			parts = append(parts, grp.sentence)
			continue
		}
		parts = append(parts, strings.Replace(grp.sentence, toolSlot, toolList(grp.names), 1))
	}
	return strings.Join(parts, " ") + " Alternatively remove one leg (untrusted input, private data or outward action) from the agent's reach."
}

// toolSlot stands for the tools in a gate's sentence while tools are
// grouped by it: no tool name holds a control character.
const toolSlot = "\x1etools\x1e"

// toolList names the tools of one gate in a sentence.
func toolList(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return "each of " + names[0] + " and " + names[1]
	}
	return "each of " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// gateFor names the gate of the framework or client the owning agent runs
// in: a gate of another framework would not run there (no interrupt() for
// a crew). A use that runs without asking because of a config entry is
// fixed at that entry.
func gateFor(owner *capgraph.Agent, t *capgraph.Tool, u capgraph.Use, res *effects.Result) string {
	before := ""
	if res != nil {
		for _, ev := range res.Evidence {
			if ev.Call != nil && ev.Loc.Valid() {
				before = fmt.Sprintf(", before the call on line %d", ev.Loc.Start.Line)
				break
			}
		}
	}
	ctor, name := "", ""
	var fw extract.Framework
	if owner != nil {
		fw, name = owner.Framework, owner.Name
		if owner.Src != nil {
			ctor = owner.Src.Ctor
		}
	}
	tfw := ""
	if t.Src != nil {
		tfw = string(t.Src.Framework)
	}
	switch {
	case fw == "claude-code" && len(u.Grants) > 0 && u.Grants[0].Loc.File == "~/.claude.json":
		return fmt.Sprintf("Make Claude Code ask before %s: %s; remove it from this project's \"allowedTools\" in ~/.claude.json (or answer \"no\" when Claude Code offers to remember it).", t.Name, u.Grants[0].Why)
	case fw == "claude-code" && len(u.Grants) > 0 && len(u.Grants[0].Fix) > 0:
		return fmt.Sprintf("Make Claude Code ask before %s: %s; move that rule from permissions.allow to permissions.ask in %s.", t.Name, u.Grants[0].Why, claudeSettingsOf(u.Grants[0].Loc.File))
	case fw == "claude-code" && len(u.Grants) > 0 && u.Grants[0].Partial:
		return fmt.Sprintf("Make Claude Code ask before %s: %s; add %q to permissions.ask in .claude/settings.json (an ask rule applies whatever a hook answers), or have the hook answer \"ask\" instead.", t.Name, u.Grants[0].Why, t.Name)
	case fw == "claude-code" && len(u.Grants) > 0 && strings.Contains(u.Grants[0].Why, "permission mode"):
		return fmt.Sprintf("Make Claude Code ask before %s: %s; leave the default permission mode, or add %q to permissions.ask.", t.Name, u.Grants[0].Why, t.Name)
	case fw == "claude-code" && len(u.Grants) > 0:
		return fmt.Sprintf("Make Claude Code ask before %s: %s; remove that setting, or add %q to permissions.ask in .claude/settings.json.", t.Name, u.Grants[0].Why, t.Name)
	case fw == "claude-code":
		return fmt.Sprintf("Add %q to permissions.ask in .claude/settings.json (or a PreToolUse hook that asks) so Claude Code asks before it runs.", t.Name)
	case ctor == "mcp-config" && len(u.Grants) > 0 && strings.Contains(u.Grants[0].Why, "describes no confirmation"):
		return fmt.Sprintf("%s has no confirmation to turn on for %s: %s.", capgraph.ClientTitle(fw), t.Name, u.Grants[0].Advice)
	case ctor == "mcp-config" && len(u.Grants) > 0 && u.Grants[0].Advice != "":
		return fmt.Sprintf("Make %s ask before %s: %s; %s.", capgraph.ClientTitle(fw), t.Name, u.Grants[0].Why, u.Grants[0].Advice)
	case ctor == "mcp-config" && len(u.Grants) > 0 && strings.Contains(u.Grants[0].Why, "every tool"):
		return fmt.Sprintf("Turn the auto-approval off so %s confirms each tool call: %s.", capgraph.ClientTitle(fw), u.Grants[0].Why)
	case ctor == "mcp-config" && len(u.Grants) > 0:
		return fmt.Sprintf("Take %s off the auto-approve list so %s confirms it: %s.", t.Name, capgraph.ClientTitle(fw), u.Grants[0].Why)
	case ctor == "mcp-config":
		return fmt.Sprintf("Keep %s's confirmation before %s: set no auto-approve for it.", capgraph.ClientTitle(fw), t.Name)
	case fw == "crewai":
		return fmt.Sprintf("Add a CrewAI before-tool-call hook (crewai.hooks @before_tool_call, or @on(InterceptionPoint.PRE_TOOL_CALL, tools=[%q])) that asks a human with context.request_human_input(...) when context.tool_name is %q and blocks the call when refused (return False, or raise HookAborted); human_input=True on a task reviews only its final answer, after %s has run.", t.Name, t.Name, t.Name)
	case tfw == "agent-framework" && (t.Kind == extract.ToolFunc || t.Kind == extract.ToolAgent):
		return fmt.Sprintf("Set approval_mode=\"always_require\" on the @tool decorator (or the tool(...) / as_tool(...) call) of %s and answer the run's user_input_requests with an approval response only after a human agrees.", t.Name)
	case fw == "agent-framework" && t.Kind == extract.ToolMCP:
		return fmt.Sprintf("Give the MCP tool that serves %s approval_mode=\"always_require\" (or {\"always_require_approval\": [%q]}).", t.Name, t.Name)
	case fw == "smolagents" && t.Kind == extract.ToolBuiltin:
		return fmt.Sprintf("smolagents has no approval API and %s runs whatever code the model writes: give the CodeAgent a sandboxed executor_type (\"e2b\", \"docker\", \"modal\"), keep additional_authorized_imports free of os, subprocess and network modules, or use a ToolCallingAgent with tools that ask first.", t.Name)
	case fw == "smolagents":
		return fmt.Sprintf("smolagents has no approval API: ask a human inside %s before it acts (its forward() or @tool body, e.g. a confirmation prompt that returns early when refused), or take it out of this agent's tools.", t.Name)
	case fw == "google-adk" && t.Kind == extract.ToolFunc:
		return fmt.Sprintf("Wrap %s as FunctionTool(%s, require_confirmation=True) (from google.adk.tools) in the agent's tools, or call tool_context.request_confirmation(...) and return at the top of its body while tool_context.tool_confirmation is unset.", t.Name, t.Name)
	case fw == "google-adk" && t.Kind == extract.ToolMCP:
		return fmt.Sprintf("Give the McpToolset that serves %s require_confirmation=True.", t.Name)
	case tfw == "pydantic-ai" && t.Kind == extract.ToolFunc:
		return fmt.Sprintf("Set requires_approval=True on the tool decorator (@agent.tool) or Tool(...) of %s, give the agent output_type=[..., DeferredToolRequests], and resume the run with DeferredToolResults(approvals={...}) only after a human approves.", t.Name)
	case fw == extract.FrameworkVercelAI || tfw == string(extract.FrameworkVercelAI):
		return fmt.Sprintf("Add %s: \"user-approval\" to the toolApproval option of %s (%s(...)): the AI SDK then asks the user before each call; or set needsApproval: true in the tool({...}) of %s.", t.Name, name, ctor, t.Name)
	case jsFile(t.Loc.File) && tfw == string(extract.FrameworkOpenAIAgents) && t.Kind == extract.ToolFunc:
		return fmt.Sprintf("Set needsApproval: true in the tool({...}) of %s (from @openai/agents) and handle result.interruptions (state.approve/state.reject) before running again.", t.Name)
	case jsFile(t.Loc.File) && t.Kind == extract.ToolAgent:
		return fmt.Sprintf("Pass needsApproval: true to the asTool({...}) call that makes %s.", t.Name)
	case tfw == "openai-agents" && t.Kind == extract.ToolFunc:
		return fmt.Sprintf("Set needs_approval=True on the @function_tool decorator of %s and handle result.interruptions (state.approve/state.reject) in the run loop.", t.Name)
	case t.Kind == extract.ToolAgent:
		return fmt.Sprintf("Pass needs_approval=True to the as_tool(...) call that makes %s.", t.Name)
	case fw == "openai-agents" && t.Kind == extract.ToolMCP:
		return fmt.Sprintf("Give the MCP server of %s require_approval=\"always\" (or {\"always\": {\"tool_names\": [%q]}}) and approve in the run loop.", t.Name, t.Name)
	case fw == "openai-agents":
		return fmt.Sprintf("Construct %s with needs_approval=True (or require_approval=\"always\" for MCP servers).", t.Name)
	case fw == "mastra" || tfw == "mastra":
		return fmt.Sprintf("Set requireApproval: true in the createTool({...}) of %s (from @mastra/core/tools); the agent then stops with a tool-call-approval chunk, which the application approves with agent.approveToolCall({ runId }) only after a human agrees (Mastra needs storage for the snapshot).", t.Name)
	case (fw == "langgraph" || fw == "langchain") && jsFile(t.Loc.File) && (t.Kind == extract.ToolFunc || t.Kind == extract.ToolNode) && (tfw == "langchain" || tfw == "langgraph"):
		return fmt.Sprintf("Call interrupt(...) from @langchain/langgraph at the top of %s's function%s and return early when the reviewer rejects; interrupt() needs a checkpointer on %s.", t.Name, before, name)
	case (ctor == "createReactAgent" || ctor == "createAgent" || (ctor == "StateGraph" && owner != nil && jsFile(owner.Loc.File))):
		return fmt.Sprintf("Pass interruptBefore: [\"tools\"] (and a checkpointer) to %s so a human approves %s before it runs.", name, t.Name)
	case ctor == "create_agent":
		return fmt.Sprintf("Add HumanInTheLoopMiddleware(interrupt_on={%q: True}) to the middleware of %s (from langchain.agents.middleware) and give it a checkpointer.", t.Name, name)
	case (fw == "langgraph" || fw == "langchain") && (t.Kind == extract.ToolFunc || t.Kind == extract.ToolNode || t.Kind == extract.ToolClass) && (tfw == "langchain" || tfw == "langgraph"):
		return fmt.Sprintf("Call interrupt(...) from langgraph.types at the top of %s%s and return early when the reviewer rejects; interrupt() needs a checkpointer on %s.", t.Name, before, name)
	case ctor == "create_react_agent" || ctor == "StateGraph":
		return fmt.Sprintf("Compile %s with interrupt_before=[\"tools\"] (and a checkpointer) so a human approves %s before it runs.", name, t.Name)
	}
	return fmt.Sprintf("Require a human approval before %s runs.", t.Name)
}

// claudeSettingsOf names the settings file a fix edits: the user-level
// or managed file a rule came from (--user-config), else the project's.
func claudeSettingsOf(file string) string {
	if extract.IsUserFile(file) {
		return file
	}
	return ".claude/settings.json"
}

// jsFile reports whether a path is JavaScript or TypeScript source, whose
// frameworks spell their gates in their own syntax.
func jsFile(p string) bool {
	for _, e := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}
