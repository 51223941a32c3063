package policy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
)

func init() {
	Register(Check{Name: "toxic-flow", Doc: "a proven flow carries untrusted data into an action sink an agent can run, with no approval on the way", Run: toxicFlow})
}

// Flows are tied to tools by location, whichever prover found them: a flow
// whose sink is a return in a tool's body proves the tool returns its
// source; one whose source is a parameter of a tool proves the model's
// choice of that argument reaches the sink.

// toolFlow is a flow inside one reached tool.
type toolFlow struct {
	r  capgraph.Reached
	fn *extract.Func
	fl *prove.Flow
}

type agentFlows struct {
	returns []toolFlow // untrusted source -> the tool's return value
	sinks   []toolFlow // model-chosen parameter -> action sink, unapproved
	direct  []toolFlow // untrusted source -> action sink inside one tool, unapproved
}

func toxicFlow(in *Input) []*Finding {
	if len(in.Flows) == 0 {
		return nil
	}
	// A flow is looked up by the files of both its ends: CodeQL's paths may
	// leave the tool's file.
	byFile := map[string][]*prove.Flow{}
	for i := range in.Flows {
		fl := &in.Flows[i]
		if len(fl.Steps) == 0 {
			continue
		}
		byFile[fl.Source.Loc.File] = append(byFile[fl.Source.Loc.File], fl)
		if fl.Sink.Loc.File != fl.Source.Loc.File {
			byFile[fl.Sink.Loc.File] = append(byFile[fl.Sink.Loc.File], fl)
		}
	}
	g := in.Graph
	var out []*Finding
	for _, id := range sortedAgents(g) {
		af := collect(g.Reach(id), byFile)
		// One finding per sink: the first source found shows the path,
		// the other tools that feed the same sink are named beside it.
		byID := map[string]*Finding{}
		var order []string
		also := map[string][]*capgraph.Tool{}
		add := func(f *Finding, src *capgraph.Tool) {
			if f == nil {
				return
			}
			if prev := byID[f.ID]; prev != nil {
				if prev.Source != src.Name && !hasTool(also[f.ID], src) {
					also[f.ID] = append(also[f.ID], src)
				}
				return
			}
			byID[f.ID] = f
			order = append(order, f.ID)
		}
		for _, d := range af.direct {
			add(directFinding(g, g.Agents[id], d), d.r.Tool)
		}
		for _, src := range af.returns {
			for _, sink := range af.sinks {
				// A tool fed its own output (a fetch whose page picks the next
				// URL) carries nothing the tool did not already have: that
				// is a capability question for rule-of-two, not a bridge.
				if src.r.Tool.ID != sink.r.Tool.ID {
					add(bridgeFinding(g, g.Agents[id], src, sink), src.r.Tool)
				}
			}
		}
		for _, fid := range order {
			f := byID[fid]
			if more := also[fid]; len(more) > 0 {
				var names []string
				for _, t := range more {
					names = append(names, t.Name)
					f.Related = append(f.Related, StepAt(t.Loc, t.Name+" also returns untrusted data into the same context"))
				}
				f.Message += fmt.Sprintf(" (untrusted data from %s reaches it too)", strings.Join(names, ", "))
			}
			out = append(out, f)
		}
	}
	return out
}

func hasTool(ts []*capgraph.Tool, t *capgraph.Tool) bool {
	for _, x := range ts {
		if x.ID == t.ID {
			return true
		}
	}
	return false
}

func collect(reach []capgraph.Reached, byFile map[string][]*prove.Flow) agentFlows {
	var af agentFlows
	for _, r := range reach {
		fn := toolFunc(r.Tool)
		if fn == nil {
			continue
		}
		for _, fl := range byFile[fn.Loc.File] {
			src, sink := fl.Source.Loc, fl.Sink.Loc
			param := isModelParam(r.Tool, fn, src)
			switch {
			case fl.SinkKind == prove.SinkReturn && !param && untrusted(fl) && within(sink, fn.Body):
				if r.Tool.Effects.Has(effects.UntrustedInput) {
					af.returns = append(af.returns, toolFlow{r, fn, fl})
				}
			case !prove.IsAction(fl.SinkKind) || gatedSink(r, fn, fl) || !r.Tool.Effects.Has(sinkLabel(fl.SinkKind)):
				// Not an action, approved, or the tool's label says otherwise
				// (a user's override in .acg.yaml outranks the code).
			case param:
				af.sinks = append(af.sinks, toolFlow{r, fn, fl})
			case untrusted(fl) && src.File == fn.Loc.File && within(src, fn.Body):
				af.direct = append(af.direct, toolFlow{r, fn, fl})
			}
		}
	}
	return af
}

// untrusted: the prover said so, or did not classify its source (CodeQL's
// remote sources) and the source is not a parameter.
func untrusted(fl *prove.Flow) bool {
	return fl.SourceKind == prove.SourceUntrusted || fl.SourceKind == ""
}

func toolFunc(t *capgraph.Tool) *extract.Func {
	if t.Src == nil {
		return nil
	}
	switch t.Kind {
	case extract.ToolFunc, extract.ToolClass, extract.ToolNode:
		return t.Src.Func
	}
	return nil
}

// isModelParam: the location is a parameter the model fills in (for a
// graph node, its state).
func isModelParam(t *capgraph.Tool, fn *extract.Func, l extract.Loc) bool {
	for _, p := range fn.Params {
		if p.Name == "self" || p.Name == "cls" {
			continue
		}
		if p.Injected && t.Kind != extract.ToolNode {
			continue
		}
		if p.Loc.File == l.File && within(l, p.Loc) {
			return true
		}
	}
	return false
}

// within reports whether l starts inside span.
func within(l, span extract.Loc) bool {
	if !span.Valid() || l.File != span.File {
		return false
	}
	after := l.Start.Line > span.Start.Line || l.Start.Line == span.Start.Line && l.Start.Col >= span.Start.Col
	before := l.Start.Line < span.End.Line || l.Start.Line == span.End.Line && l.Start.Col < span.End.Col
	return after && before
}

// gatedSink: an approval covers the sink tool on this path, or a gate call
// in the tool's body always runs before the sink call.
func gatedSink(r capgraph.Reached, fn *extract.Func, fl *prove.Flow) bool {
	if r.Gated(sinkLabel(fl.SinkKind)) {
		return true
	}
	for _, c := range fn.Calls {
		if !within(fl.Sink.Loc, c.Loc) {
			continue
		}
		for _, d := range c.Dominators() {
			if d.Gate {
				return true
			}
		}
	}
	return false
}

func sinkLabel(kind string) effects.Label {
	switch kind {
	case prove.SinkEgress:
		return effects.NetworkEgress
	case prove.SinkExec:
		return effects.ExecutesCode
	}
	return effects.WritesState
}

// bridgeFinding: tool A returns untrusted data into the agent's context,
// and the agent can choose tool B's argument that reaches an action.
func bridgeFinding(g *capgraph.Graph, a *capgraph.Agent, src, sink toolFlow) *Finding {
	viaState := src.r.Tool.Kind == extract.ToolNode && sink.r.Tool.Kind == extract.ToolNode
	if viaState && src.r.Use.Agent == sink.r.Use.Agent {
		// Graph nodes hand state along edges: B must be able to run after A.
		if ag := g.Agents[src.r.Use.Agent]; ag != nil && ag.Src != nil && ag.Src.Graph != nil && !follows(ag.Src.Graph, src.r.Use.Node, sink.r.Use.Node) {
			return nil
		}
	}
	label := sinkLabel(sink.fl.SinkKind)
	sinkName := sinkWhat(sink.fl)
	ctx := fmt.Sprintf("the result of %s enters the context of agent %s, which chooses the arguments of %s", src.r.Tool.Name, a.Name, sink.r.Tool.Name)
	if viaState {
		ctx = fmt.Sprintf("node %s returns it into the state of graph %s, which node %s reads", src.r.Tool.Name, a.Name, sink.r.Tool.Name)
	}
	steps := stepsOf(src.fl)
	steps = append(steps, StepAt(a.Loc, ctx))
	steps = append(steps, stepsOf(sink.fl)...)
	f := toxicBase(g, a, label, sink, []capgraph.Reached{src.r, sink.r}, steps)
	f.ID = fingerprint("toxic-flow", a.ID, sink.r.Tool.ID, sinkName)
	f.Source, f.Chain = src.r.Tool.Name, uniq(src.r.Tool.Name, sink.r.Tool.Name)
	f.DecidedBy = proverNames(src.fl, sink.fl)
	f.Message = fmt.Sprintf("Untrusted data returned by %s can reach %s in %s through agent %s's %s, with no human approval",
		src.r.Tool.Name, sinkName, sink.r.Tool.Name, a.Name, map[bool]string{true: "graph state", false: "context"}[viaState])
	f.Related = append(f.Related, StepAt(src.r.Tool.Loc, src.r.Tool.Name+" returns untrusted data"))
	f.Related = append(f.Related, StepAt(sink.r.Tool.Loc, fmt.Sprintf("%s passes its argument to %s", sink.r.Tool.Name, sinkName)))
	return f
}

// directFinding: one tool reads untrusted data and acts on it.
func directFinding(g *capgraph.Graph, a *capgraph.Agent, d toolFlow) *Finding {
	label := sinkLabel(d.fl.SinkKind)
	sinkName := sinkWhat(d.fl)
	f := toxicBase(g, a, label, d, []capgraph.Reached{d.r}, stepsOf(d.fl))
	f.ID = fingerprint("toxic-flow", a.ID, d.r.Tool.ID, sinkName)
	f.Source, f.Chain = d.r.Tool.Name, []string{d.r.Tool.Name}
	f.DecidedBy = proverNames(d.fl)
	f.Message = fmt.Sprintf("Untrusted data read in %s reaches %s with no human approval (agent %s can run it)", d.r.Tool.Name, sinkName, a.Name)
	f.Related = append(f.Related, StepAt(d.r.Tool.Loc, d.r.Tool.Name+" reads untrusted data and acts on it"))
	return f
}

func toxicBase(g *capgraph.Graph, a *capgraph.Agent, label effects.Label, sink toolFlow, legs []capgraph.Reached, steps []Step) *Finding {
	chainType := "direct"
	var scope []string
	for _, r := range legs {
		if r.Indirect() {
			chainType = "indirect"
		}
		for _, id := range r.Via {
			if ag := g.Agents[id]; ag != nil {
				scope = appendUniq(scope, ag.Name)
			}
		}
	}
	f := &Finding{Rule: "toxic-flow", Severity: Critical, Agent: a.Name, AgentID: a.ID, Sink: sink.r.Tool.Name,
		InScope: scope, ChainType: chainType, VulnerabilityType: VulnType(label),
		Location: LocationOf(sink.fl.Sink.Loc), Loc: sink.fl.Sink.Loc, Steps: steps,
		Taxonomy: taxonomyFor("toxic-flow", label), SinkIDs: []string{sink.r.Tool.ID},
		Triage: "confirmed: a prover traced the data from source to sink"}
	f.RiskScore = RiskScore(Critical, chainType, 0)
	f.Remediation = remediation(g, a, []leg{{sink.r, label, sink.r.Tool.Effects.Get(label)}})
	f.Related = []Step{StepAt(a.Loc, "agent "+a.Name+" can run both")}
	return f
}

// follows reports whether node to can run after node from in a graph.
func follows(gr *extract.Graph, from, to string) bool {
	if gr.Open || from == "" || to == "" {
		return true
	}
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, s := range gr.Successors(n) {
			if s == to {
				return true
			}
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return false
}

func stepsOf(fl *prove.Flow) []Step {
	out := make([]Step, 0, len(fl.Steps))
	for _, s := range fl.Steps {
		msg := s.Message
		if msg == "" {
			msg = s.Role
		}
		out = append(out, StepAt(s.Loc, msg))
	}
	return out
}

// sinkWhat names a sink stably (no line numbers): the prover's message on
// its last step, without the "sink:" prefix.
func sinkWhat(fl *prove.Flow) string {
	m := strings.TrimSpace(fl.Sink.Message)
	if i := strings.Index(m, ":"); i >= 0 && i < 12 {
		m = strings.TrimSpace(m[i+1:])
	}
	if n, _, ok := strings.Cut(m, " "); ok && strings.HasPrefix(fl.Sink.Message, "sink: ") {
		return n // builtin: "sink: requests.post sends the data out"
	}
	if i := strings.Index(m, " @ '"); i >= 0 {
		m = strings.Trim(m[:i], "'") // Opengrep: "Sink: 'sink1(b)' @ 'taint.py:9'"
	}
	if m == "" {
		m = fl.RuleID
	}
	return m
}

func proverNames(fls ...*prove.Flow) string {
	var names []string
	for _, fl := range fls {
		names = appendUniq(names, fl.Tool)
	}
	sort.Strings(names)
	return strings.Join(names, "+")
}
