package capgraph

import (
	"sort"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// Reached is a tool in an agent's reach and the path to it.
type Reached struct {
	Tool *Tool
	// Via lists the agents from the root to the one that uses the tool
	// (just the root for its own tools).
	Via []string
	Use Use
	// Gate is the approval that covers every call of the tool on this path
	// (an agent-level gate on the use, or a tool-level gate), if any.
	Gate *extract.Approval
}

// Gated reports whether an approval stands before a label's effect on this
// path: a gate on the use or the tool, or one inside the tool's own code
// before every piece of evidence.
func (r Reached) Gated(l effects.Label) bool {
	return r.Gate != nil || r.Tool.Effects.Get(l).Gated()
}

// Indirect reports whether the tool is reached through another agent.
func (r Reached) Indirect() bool { return len(r.Via) > 1 }

// Reach returns every tool an agent can invoke, through its own tools,
// handoffs, sub-agents and agents-as-tools. A tool reached by several paths
// is reported once per path shape, ungated paths first. The graph does not
// change after Build, so each agent's reach is walked once; the slice is
// shared and callers must not change it.
func (gr *Graph) Reach(agentID string) []Reached {
	gr.reachMu.Lock()
	r, ok := gr.reach[agentID]
	gr.reachMu.Unlock()
	if ok {
		return r
	}
	r = gr.walk(agentID)
	gr.reachMu.Lock()
	if gr.reach == nil {
		gr.reach = map[string][]Reached{}
	}
	gr.reach[agentID] = r
	gr.reachMu.Unlock()
	return r
}

func (gr *Graph) walk(agentID string) []Reached {
	type item struct {
		agent string
		via   []string
		gate  *extract.Approval // a gate on the tool that runs this agent
	}
	visited := map[string]bool{agentID: true}
	queue := []item{{agentID, []string{agentID}, nil}}
	best := map[string]Reached{}
	var order []string
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		// The paths from one root form a tree: the first path that extends
		// this one extends it in place, the others copy it. A handoff chain
		// then keeps one array of agents per root, not a copy per agent
		// reached (cubic in the chain's length, now that reaches are kept).
		// Safe: an index of an array is written only by the one first
		// child at that depth; Reached.Via is capped, so a caller's append
		// copies.
		extended := false
		extend := func(to string) []string {
			if extended {
				return appendCopy(it.via, to)
			}
			extended = true
			return append(it.via, to)
		}
		via := it.via[:len(it.via):len(it.via)]
		for _, u := range gr.usesOf[it.agent] {
			t := gr.Tools[u.Tool]
			r := Reached{Tool: t, Via: via, Use: u}
			if len(u.Gates) > 0 {
				r.Gate = u.Gates[0]
			}
			if ap, ok := t.Gated(); ok {
				r.Gate = ap
			}
			if r.Gate == nil {
				r.Gate = it.gate
			}
			prev, seen := best[t.ID]
			switch {
			case !seen:
				order = append(order, t.ID)
				best[t.ID] = r
			case prev.Gate != nil && r.Gate == nil:
				best[t.ID] = r // an ungated path outweighs a gated one
			}
			// Running the tool runs its agent: the agent's reach is ours, and
			// the gate on this tool gates that whole reach (needs_approval on
			// as_tool). Gated sub-reaches are still walked for capabilities.
			if t.Agent != "" && !visited[t.Agent] {
				visited[t.Agent] = true
				queue = append(queue, item{t.Agent, extend(t.Agent), r.Gate})
			}
		}
		for _, to := range gr.agentsAfter(it.agent) {
			if visited[to] {
				continue
			}
			visited[to] = true
			queue = append(queue, item{to, extend(to), it.gate})
		}
	}
	out := make([]Reached, 0, len(order))
	for _, id := range order {
		out = append(out, best[id])
	}
	return out
}

// agentsAfter are the agents an agent hands off to or runs as sub-agents,
// sorted (gonum iterates in random order), listed once per graph: every
// walk that passes the agent asks.
func (gr *Graph) agentsAfter(agent string) []string {
	gr.reachMu.Lock()
	defer gr.reachMu.Unlock()
	if next, ok := gr.next[agent]; ok {
		return next
	}
	var next []string
	if nid, ok := gr.ids[agent]; ok {
		succ := gr.g.From(nid)
		for succ.Next() {
			if id := succ.Node().ID(); gr.kinds[id] == NodeAgent {
				next = append(next, gr.names[id])
			}
		}
		sort.Strings(next)
	}
	if gr.next == nil {
		gr.next = map[string][]string{}
	}
	gr.next[agent] = next
	return next
}

func appendCopy(s []string, x string) []string {
	out := make([]string, len(s)+1)
	copy(out, s)
	out[len(s)] = x
	return out
}

// Capabilities returns the capabilities an agent reaches.
func (gr *Graph) Capabilities(agentID string) []effects.Capability {
	have := map[effects.Capability]bool{}
	for _, r := range gr.Reach(agentID) {
		for _, c := range r.Tool.Effects.Caps() {
			have[c] = true
		}
	}
	var out []effects.Capability
	for _, c := range effects.Capabilities {
		if have[c] {
			out = append(out, c)
		}
	}
	return out
}

// RunsAsTool reports whether agent from reaches agent to by running it
// inside one of its tools (an agent-as-tool, a tool that runs the agent):
// to then sees only the arguments that tool call passes, not from's
// context, unlike a handoff, which passes the conversation over.
func (gr *Graph) RunsAsTool(from, to string) bool {
	for _, u := range gr.usesOf[from] {
		if t := gr.Tools[u.Tool]; t != nil && t.Agent == to {
			return true
		}
	}
	return false
}
