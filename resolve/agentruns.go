package resolve

import (
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
)

// Agent delegation: a tool whose body runs another agent of the tree
// through the variable it is bound to (PydanticAI's documented pattern,
// `result = await search_agent.run(query)`; the same shape in smolagents,
// LangChain, the OpenAI Agents SDK's agent objects). Running the agent is
// the agent's doing: its own tools say what it can do, so the call adds no
// effects of its own (effects asks RunsTreeAgent) and the tool reaches the
// agent (agentRunsInBodies). The two sides read the same calls, so a run
// that one drops the other links: nothing fails open.

// agentRunMethods are the methods that run an agent object.
var agentRunMethods = map[string]bool{"run": true, "run_sync": true, "run_stream": true, "run_stream_events": true,
	"iter": true, "arun": true, "run_async": true, "invoke": true, "ainvoke": true, "stream": true, "astream": true,
	"kickoff": true, "kickoff_async": true}

// agentRunBy is the agent of the tree a call runs through its variable
// (mail_agent.run(q), mail_agent imported from another file), else nil.
func (ix *Index) agentRunBy(c *extract.Call) *extract.Agent {
	if c == nil || c.Expr == nil || c.Expr.Recv != nil || c.HeadKind == extract.HeadSelf {
		return nil
	}
	recv, method, ok := cutLast(c.Expr.Name)
	if !ok || !agentRunMethods[method] || strings.Contains(recv, "(") {
		return nil
	}
	sc := c.Expr.Scope
	if sc == nil && c.Func != nil {
		sc = c.Func.Scope
	}
	if attr, ok := strings.CutPrefix(recv, "self."); ok && !strings.Contains(attr, ".") {
		return ix.selfAgent(sc, c.Func, attr)
	}
	if strings.Contains(recv, ".") {
		return nil
	}
	t, ok := ix.lookup(sc, recv, 0)
	if !ok || t.bind == nil || t.bind.Kind != extract.BindAssign || t.bind.Value == nil || t.file == nil {
		return nil
	}
	return agentBuiltBy(t.file, t.bind.Value)
}

// agentBuiltBy is the agent of f that the call v (through a name bound to
// it) constructs, else nil.
func agentBuiltBy(f *extract.File, v *extract.Expr) *extract.Agent {
	v = extract.Deref(v)
	if v == nil || v.Kind != extract.ExprCall {
		return nil
	}
	for _, a := range f.Agents {
		if a.Call == v || a.Call != nil && v.Call != nil && a.Call.Call == v.Call {
			return a
		}
	}
	return nil
}

// selfAgent is the agent of the tree a method runs through an attribute
// of self that every method of its class sets to that one agent
// (self.agent_executor = AgentExecutor(...) in __init__).
func (ix *Index) selfAgent(sc *extract.Scope, fn *extract.Func, attr string) *extract.Agent {
	if fn == nil || fn.Class == "" {
		return nil
	}
	f := ix.fileOf(sc)
	if f == nil || f.Classes[fn.Class] == nil {
		return nil
	}
	values := f.Classes[fn.Class].SelfValues[attr]
	if len(values) != 1 || values[0] == nil {
		return nil
	}
	return agentBuiltBy(f, values[0])
}

func cutLast(s string) (string, string, bool) {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 || i == len(s)-1 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// RunsTreeAgent implements effects.AgentRunResolver.
func (r resolver) RunsTreeAgent(c *extract.Call) bool { return r.ix.agentRunBy(c) != nil }

// agentsRunBy are the agents fn runs, directly or through the functions of
// the tree it calls (as the effects analysis follows them), by id.
func (b *builder) agentsRunBy(fn *extract.Func) []*extract.Agent {
	seen := map[*extract.Func]bool{}
	got := map[*extract.Agent]bool{}
	var walk func(fn *extract.Func, depth int)
	walk = func(fn *extract.Func, depth int) {
		if fn == nil || fn == noCode || seen[fn] || depth > 6 {
			return
		}
		seen[fn] = true
		for _, c := range fn.Calls {
			if a := b.ix.agentRunBy(c); a != nil {
				got[a] = true
				continue
			}
			if callee := b.ix.callee(c); callee != nil {
				walk(callee, depth+1)
			}
		}
	}
	walk(fn, 0)
	out := make([]*extract.Agent, 0, len(got))
	for a := range got {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// agentRunsInBodies links each function tool (and graph node) to the
// agents its body runs:
// one agent becomes the tool's own (its gate then gates that agent's reach,
// as for an agent-as-tool); several become sub-agents of every agent that
// uses the tool (each is reached; a gate on the tool is not carried over,
// which can only add findings).
func (b *builder) agentRunsInBodies() {
	users := map[string][]string{}
	for _, u := range b.uses {
		users[u.Tool] = append(users[u.Tool], u.Agent)
	}
	for _, id := range b.order {
		ct := b.tools[id]
		if ct.Agent != "" || ct.Src == nil || ct.Src.Func == nil || (ct.Src.Kind != extract.ToolFunc && ct.Src.Kind != extract.ToolNode) {
			continue // a graph node that runs an agent of the tree reaches it as a tool does
		}
		run := b.agentsRunBy(ct.Src.Func)
		var ids []string
		for _, a := range run {
			if ca := b.agents[a]; ca != nil {
				ids = append(ids, ca.ID)
			}
		}
		switch {
		case len(ids) == 1:
			ct.Agent = ids[0]
		case len(ids) > 1:
			for _, from := range users[ct.ID] {
				for _, to := range ids {
					if from != to {
						b.links = append(b.links, capgraph.Link{From: from, To: to, Kind: capgraph.EdgeSubAgent, Loc: ct.Loc})
					}
				}
			}
		}
	}
}
