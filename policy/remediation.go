package policy

import (
	"fmt"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// remediation names the concrete gate to add for each ungated action, in
// the framework of the agent and the tool.
func remediation(g *capgraph.Graph, a *capgraph.Agent, actions []leg) string {
	var parts []string
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
		parts = append(parts, gateFor(owner, t, l.res))
	}
	if len(parts) == 0 {
		return "Require human approval before the outward action, or remove one of the three legs from the agent's reach."
	}
	return strings.Join(parts, " ") + " Alternatively remove one leg (untrusted input, private data or outward action) from the agent's reach."
}

func gateFor(owner *capgraph.Agent, t *capgraph.Tool, res *effects.Result) string {
	before := ""
	for _, ev := range res.Evidence {
		if ev.Call != nil && ev.Loc.Valid() {
			before = fmt.Sprintf(", before the call on line %d", ev.Loc.Start.Line)
			break
		}
	}
	ctor := ""
	if owner != nil && owner.Src != nil {
		ctor = owner.Src.Ctor
	}
	switch {
	case t.Src != nil && t.Src.Framework == "openai-agents" && t.Kind == extract.ToolFunc:
		return fmt.Sprintf("Set needs_approval=True on the @function_tool decorator of %s and handle result.interruptions (state.approve/state.reject) in the run loop.", t.Name)
	case t.Kind == extract.ToolAgent:
		return fmt.Sprintf("Pass needs_approval=True to the as_tool(...) call that makes %s.", t.Name)
	case ctor == "create_agent":
		return fmt.Sprintf("Add HumanInTheLoopMiddleware(interrupt_on={%q: True}) to the middleware of %s (from langchain.agents.middleware) and give it a checkpointer.", t.Name, owner.Name)
	case (t.Kind == extract.ToolFunc || t.Kind == extract.ToolNode || t.Kind == extract.ToolClass) && t.Src != nil && (t.Src.Framework == "langchain" || t.Src.Framework == "langgraph"):
		return fmt.Sprintf("Call interrupt(...) from langgraph.types at the top of %s%s and return early when the reviewer rejects; interrupt() needs a checkpointer on %s.", t.Name, before, owner.Name)
	case ctor == "create_react_agent" || ctor == "StateGraph":
		return fmt.Sprintf("Compile %s with interrupt_before=[\"tools\"] (and a checkpointer) so a human approves %s before it runs.", owner.Name, t.Name)
	case owner != nil && owner.Framework == "openai-agents" && t.Kind == extract.ToolPrebuilt:
		return fmt.Sprintf("Construct %s with needs_approval=True (or require_approval=\"always\" for MCP servers).", t.Name)
	}
	return fmt.Sprintf("Require a human approval before %s runs.", t.Name)
}
