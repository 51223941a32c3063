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
	r  *capgraph.Reached // into the graph's shared reach
	fn *extract.Func
	fl *prove.Flow
}

type agentFlows struct {
	returns []toolFlow // untrusted source -> the tool's return value
	sinks   []toolFlow // model-chosen parameter -> action sink, unapproved
	direct  []toolFlow // untrusted source -> action sink inside one tool, unapproved
}

// flowGroup is one toxic-flow finding in the making: one sink call site
// (a tool and the call that acts) and every source whose untrusted data a
// prover traced to it, through whichever agent's context.
type flowGroup struct {
	id     string
	owner  *capgraph.Agent // the agent that lists the sink's tool
	sink   toolFlow        // the sink flow shown
	label  effects.Label
	name   string
	direct *toolFlow // the sink's own tool reads the untrusted data
	srcs   []bridge
	got    bits // source tools already listed
	// indirect: a leg of the finding is reached through another agent.
	indirect bool
	// scope are the agents on the paths, each once: every agent that can
	// run the sink is named, even when it adds no new source. scopeSet
	// holds them by index (viaSets), so a path that adds no agent costs a
	// few words, not its length.
	scope    []string
	scopeSet bits
}

func (grp *flowGroup) inScope(g *capgraph.Graph, paths *viaSets, r *capgraph.Reached) {
	n := paths.of(g, r.Via)
	if n == nil || !grp.scopeSet.newIn(n.bits, -1) {
		return
	}
	// The agents the path adds, found from its end: a path whose agents
	// are all in the scope ends the walk, as every path before it is a
	// prefix of it. They join in the path's order.
	var add []*viaNode
	for x := n; x != nil && grp.scopeSet.newIn(x.bits, -1); x = x.parent {
		if x.idx >= 0 && !grp.scopeSet.has(x.idx) {
			add = append(add, x)
		}
	}
	for i := len(add) - 1; i >= 0; i-- {
		grp.scopeSet.set(add[i].idx)
		grp.scope = append(grp.scope, add[i].name)
	}
}

// viaSets gives the agents on a path of one root's reach as a set over
// agent indices. Reach's paths from one root form a tree (each agent is
// reached once, and its path extends its parent's), so a path's set is its
// parent's plus its last agent, made once per (root, agent), and a path is
// walked back through its parents without a lookup per agent.
type viaSets struct {
	index map[string]int
	byEnd map[string]*viaNode // the current root's paths, by their last agent
}

// viaNode is one path of a root's reach: its agents as a set, the path
// it extends, and its last agent (idx -1 when that is no agent of the
// graph).
type viaNode struct {
	bits   bits
	parent *viaNode
	idx    int
	name   string
}

func newViaSets(agents []string) *viaSets {
	vs := &viaSets{index: make(map[string]int, len(agents))}
	for i, id := range agents {
		vs.index[id] = i
	}
	return vs
}

// root starts the paths of the next root agent.
func (vs *viaSets) root() { vs.byEnd = map[string]*viaNode{} }

func (vs *viaSets) of(g *capgraph.Graph, via []string) *viaNode {
	if len(via) == 0 {
		return nil
	}
	end := via[len(via)-1]
	if n, ok := vs.byEnd[end]; ok {
		return n
	}
	parent := vs.of(g, via[:len(via)-1])
	n := &viaNode{parent: parent, idx: -1}
	if parent != nil {
		n.bits = append(bits(nil), parent.bits...)
	}
	if i, ok := vs.index[end]; ok {
		if a := g.Agents[end]; a != nil {
			n.idx, n.name = i, a.Name
			n.bits.set(i)
		}
	}
	vs.byEnd[end] = n
	return n
}

// bridge is one source tool feeding a sink: its return flow, and the agent
// whose context carries it (x) with the sink's flow as x reaches it. The
// flows point into the agent's own collected flows: a large handoff chain
// has a bridge per (source, sink) pair, and a copy of both flows in each
// was most of the analysis's heap.
type bridge struct {
	x    *capgraph.Agent
	src  *toolFlow
	sink *toolFlow
}

// toxicFlow reports one finding per sink call site, listing every source
// that reaches it: the count grows with tools, never with the pairs of
// sources and sinks or with the agents that reach both.
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
	type groupKey struct{ tool, sink string }
	groups := map[groupKey]*flowGroup{}
	var order []groupKey
	toolIdx := map[string]int{}
	index := func(t *capgraph.Tool) int {
		i, ok := toolIdx[t.ID]
		if !ok {
			i = len(toolIdx)
			toolIdx[t.ID] = i
		}
		return i
	}
	group := func(a *capgraph.Agent, sink toolFlow) *flowGroup {
		name := sinkWhat(sink.fl)
		key := groupKey{sink.r.Tool.ID, name}
		grp := groups[key]
		if grp == nil {
			owner := g.Agents[sink.r.Use.Agent]
			if owner == nil {
				owner = a
			}
			grp = &flowGroup{id: fingerprint("toxic-flow", sink.r.Tool.ID, name), owner: owner, sink: sink,
				label: sinkLabel(sink.fl.SinkKind), name: name}
			groups[key] = grp
			order = append(order, key)
		}
		return grp
	}
	agents := sortedAgents(g)
	paths := newViaSets(agents)
	flowsOf := toolFlows{byFile: byFile, memo: map[*capgraph.Tool][]classified{}}
	for _, id := range agents {
		a := g.Agents[id]
		paths.root()
		af := flowsOf.collect(g.Reach(id))
		for i := range af.direct {
			d := af.direct[i]
			grp := group(a, d)
			grp.inScope(g, paths, d.r)
			if grp.direct == nil {
				grp.direct = &d
				grp.indirect = grp.indirect || d.r.Indirect()
			}
		}
		if len(af.sinks) == 0 || len(af.returns) == 0 {
			continue
		}
		// The first return flow of each source tool in this agent's reach.
		var have bits
		first := map[int]*toolFlow{}
		var srcOrder []int
		for j := range af.returns {
			src := &af.returns[j]
			i := index(src.r.Tool)
			if !have.has(i) {
				have.set(i)
				first[i] = src
				srcOrder = append(srcOrder, i)
			}
		}
		for j := range af.sinks {
			sink := &af.sinks[j]
			grp := group(a, *sink)
			grp.inScope(g, paths, sink.r)
			self := -1
			if i, ok := toolIdx[sink.r.Tool.ID]; ok {
				self = i
			}
			if !grp.got.newIn(have, self) {
				continue // every source of this agent is listed already
			}
			for _, i := range srcOrder {
				src := first[i]
				// A tool fed its own output (a fetch whose page picks the next
				// URL) carries nothing the tool did not already have: that
				// is a capability question for rule-of-two, not a bridge.
				if i == self || grp.got.has(i) || !bridges(g, src, sink) {
					continue
				}
				grp.got.set(i)
				grp.srcs = append(grp.srcs, bridge{x: a, src: src, sink: sink})
				grp.indirect = grp.indirect || src.r.Indirect() || sink.r.Indirect()
				grp.inScope(g, paths, src.r)
			}
		}
	}
	out := make([]*Finding, 0, len(order))
	memo := flowSteps{flows: map[*prove.Flow][]Step{}, parts: map[flowPart][]Step{}}
	var sets sourceSets
	for _, key := range order {
		if f := flowFinding(g, groups[key], memo, &sets); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// bits is a set of small integers (tool indices).
type bits []uint64

func (b *bits) set(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b bits) has(i int) bool { return i >= 0 && i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// newIn reports whether o holds an index that b lacks, other than skip.
func (b bits) newIn(o bits, skip int) bool {
	for w, x := range o {
		if skip >= 0 && skip/64 == w {
			x &^= 1 << (skip % 64)
		}
		if w >= len(b) {
			if x != 0 {
				return true
			}
			continue
		}
		if x&^b[w] != 0 {
			return true
		}
	}
	return false
}

// bridges reports whether a source's data can reach a sink through the
// agent: graph nodes hand state along edges, so B must be able to run
// after A.
func bridges(g *capgraph.Graph, src, sink *toolFlow) bool {
	viaState := src.r.Tool.Kind == extract.ToolNode && sink.r.Tool.Kind == extract.ToolNode
	if viaState && src.r.Use.Agent == sink.r.Use.Agent {
		if ag := g.Agents[src.r.Use.Agent]; ag != nil && ag.Src != nil && ag.Src.Graph != nil && !follows(ag.Src.Graph, src.r.Use.Node, sink.r.Use.Node) {
			return false
		}
	}
	return true
}

// flowFinding makes the finding of one sink call site: its path is the
// first source's (the sink's own tool when it reads the data itself), and
// every other source adds its own path.
func flowFinding(g *capgraph.Graph, grp *flowGroup, memo flowSteps, sets *sourceSets) *Finding {
	if grp.direct == nil && len(grp.srcs) == 0 {
		return nil
	}
	a := grp.owner
	var ps pathSet
	var own []string // the finding's own sources: the sink's tool reading the data itself
	var fls []*prove.Flow
	if d := grp.direct; d != nil {
		ps.add(memo.of(d.fl))
		own = append(own, d.r.Tool.Name)
		fls = append(fls, d.fl)
	}
	viaState := false
	useSet := len(grp.srcs) > 1
	for i, b := range grp.srcs {
		vs := b.src.r.Tool.Kind == extract.ToolNode && b.sink.r.Tool.Kind == extract.ToolNode
		viaState = viaState || vs
		fls = append(fls, b.src.fl, b.sink.fl)
		if !useSet || i == 0 {
			ps.add(memo.source(b, vs), memo.sink(b, vs))
			continue
		}
		// Beside the head, a source's steps are its set's; the finding
		// keeps the sink's side of each and the first paths whole.
		n := len(ps.paths)
		ps.add(memo.sink(b, vs))
		if len(ps.paths) > n {
			ps.paths[n] = joinParts(memo.source(b, vs), memo.sink(b, vs))
		}
	}
	bridged := make([]string, 0, len(grp.srcs))
	for _, b := range grp.srcs {
		bridged = append(bridged, b.src.r.Tool.Name)
	}
	sources := uniqNames(len(own)+len(bridged), func(i int) string {
		if i < len(own) {
			return own[i]
		}
		return bridged[i-len(own)]
	})
	sink := grp.sink
	f := toxicBase(g, a, grp.label, sink, grp.indirect)
	ps.set(f)
	f.ID = grp.id
	f.InScope = grp.scope
	f.Source, f.Sources = sources[0], sources
	f.Chain = uniqNames(len(sources)+1, func(i int) string {
		if i == len(sources) {
			return sink.r.Tool.Name
		}
		return sources[i]
	})
	f.DecidedBy = proverNames(fls...)
	switch {
	case grp.direct != nil && len(grp.srcs) == 0:
		f.Message = fmt.Sprintf("Untrusted data read in %s reaches %s with no human approval (agent %s can run it)", sink.r.Tool.Name, grp.name, a.Name)
	case grp.direct != nil:
		f.Message = fmt.Sprintf("Untrusted data read in %s, and returned by %s, reaches %s with no human approval (agent %s can run it)",
			sink.r.Tool.Name, brief(sources[1:]), grp.name, a.Name)
	default:
		b := grp.srcs[0]
		f.Message = fmt.Sprintf("Untrusted data returned by %s can reach %s in %s through agent %s's %s, with no human approval",
			brief(sources), grp.name, sink.r.Tool.Name, b.x.Name, map[bool]string{true: "graph state", false: "context"}[viaState])
	}
	if d := grp.direct; d != nil {
		f.Related = append(f.Related, StepAt(d.r.Tool.Loc, d.r.Tool.Name+" reads untrusted data and acts on it"))
	}
	if useSet {
		f.Sources = uniqNames(len(own), func(i int) string { return own[i] })
		if len(f.Sources) == 0 {
			f.Sources = nil
		}
		f.Set = sets.of(len(grp.srcs), func(i int) []Step {
			b := grp.srcs[i]
			return memo.source(b, b.src.r.Tool.Kind == extract.ToolNode && b.sink.r.Tool.Kind == extract.ToolNode)
		}, func() *SourceSet {
			st := &SourceSet{Tools: uniqNames(len(bridged), func(i int) string { return bridged[i] }), Related: make([]Step, 0, len(grp.srcs))}
			parts := make([][]Step, len(grp.srcs))
			for i, b := range grp.srcs {
				parts[i] = memo.source(b, b.src.r.Tool.Kind == extract.ToolNode && b.sink.r.Tool.Kind == extract.ToolNode)
				st.Related = append(st.Related, StepAt(b.src.r.Tool.Loc, b.src.r.Tool.Name+" returns untrusted data"))
			}
			st.Steps = stepsOnce(parts...)
			return st
		})
	} else {
		for _, b := range grp.srcs {
			f.Related = append(f.Related, StepAt(b.src.r.Tool.Loc, b.src.r.Tool.Name+" returns untrusted data"))
		}
	}
	if len(grp.srcs) > 0 {
		f.Related = append(f.Related, StepAt(sink.r.Tool.Loc, fmt.Sprintf("%s passes its argument to %s", sink.r.Tool.Name, grp.name)))
	}
	return f
}

// toolFlows sorts each tool's flows once: a tool is reached by every agent
// upstream of it, and what its flows are does not depend on the path, save
// for an approval on the path (Reached.Gated), checked per reach.
type toolFlows struct {
	byFile map[string][]*prove.Flow
	memo   map[*capgraph.Tool][]classified
}

type flowClass int

const (
	returnsUntrusted flowClass = iota // untrusted source -> the tool's return
	paramToSink                       // model-chosen parameter -> action sink
	directToSink                      // untrusted source -> action sink in the tool
)

type classified struct {
	fl    *prove.Flow
	class flowClass
}

func (tf toolFlows) of(t *capgraph.Tool, fn *extract.Func) []classified {
	if cs, ok := tf.memo[t]; ok {
		return cs
	}
	var cs []classified
	for _, fl := range tf.byFile[fn.Loc.File] {
		src, sink := fl.Source.Loc, fl.Sink.Loc
		param := isModelParam(t, fn, src)
		switch {
		case fl.SinkKind == prove.SinkReturn && !param && untrusted(fl) && within(sink, fn.Body):
			if t.Effects.Has(effects.UntrustedInput) {
				cs = append(cs, classified{fl, returnsUntrusted})
			}
		case !prove.IsAction(fl.SinkKind) || gatedInBody(fn, fl) || !t.Effects.Has(sinkLabel(fl.SinkKind)):
			// Not an action, approved in the tool's code, or the tool's
			// label says otherwise (a user's override in .acg.yaml outranks
			// the code).
		case param:
			cs = append(cs, classified{fl, paramToSink})
		case untrusted(fl) && src.File == fn.Loc.File && within(src, fn.Body):
			cs = append(cs, classified{fl, directToSink})
		}
	}
	tf.memo[t] = cs
	return cs
}

func (tf toolFlows) collect(reach []capgraph.Reached) agentFlows {
	var af agentFlows
	for i := range reach {
		r := &reach[i]
		fn := toolFunc(r.Tool)
		if fn == nil {
			continue
		}
		for _, c := range tf.of(r.Tool, fn) {
			if c.class != returnsUntrusted && r.Gated(sinkLabel(c.fl.SinkKind)) {
				continue // an approval on this path
			}
			tfl := toolFlow{r, fn, c.fl}
			switch c.class {
			case returnsUntrusted:
				af.returns = append(af.returns, tfl)
			case paramToSink:
				af.sinks = append(af.sinks, tfl)
			case directToSink:
				af.direct = append(af.direct, tfl)
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

// gatedInBody: a gate call in the tool's body always runs before the
// sink call (an approval on the path is Reached.Gated).
func gatedInBody(fn *extract.Func, fl *prove.Flow) bool {
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

// toxicBase is the finding of a sink flow; the caller sets its scope,
// sources and steps.
func toxicBase(g *capgraph.Graph, a *capgraph.Agent, label effects.Label, sink toolFlow, indirect bool) *Finding {
	chainType := "direct"
	if indirect {
		chainType = "indirect"
	}
	f := &Finding{Rule: "toxic-flow", Severity: Critical, Agent: a.Name, AgentID: a.ID, Sink: sink.r.Tool.Name,
		ChainType: chainType, VulnerabilityType: VulnType(label),
		Location: LocationOf(sink.fl.Sink.Loc), Loc: sink.fl.Sink.Loc,
		Taxonomy: taxonomyFor("toxic-flow", label), SinkIDs: []string{sink.r.Tool.ID},
		Triage: TriageConfirmed, TriageReason: "a prover traced the data from source to sink"}
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

// flowSteps shares a flow's steps between the findings and paths it
// supports: one source flow feeds every sink its agents reach. A source's
// side of a path (its flow and the step into the agent's context) is one
// per (source flow, agent), and a sink's side (the agent choosing the
// sink's arguments, and the sink's flow) one per (agent, sink flow): the
// step that said both was one per (source, agent, sink), a pair per step.
type flowSteps struct {
	flows map[*prove.Flow][]Step
	parts map[flowPart][]Step
}

type flowPart struct {
	fl    *prove.Flow
	agent *capgraph.Agent
	sink  bool
	state bool
}

func (m flowSteps) of(fl *prove.Flow) []Step {
	s, ok := m.flows[fl]
	if !ok {
		s = stepsOf(fl)
		m.flows[fl] = s
	}
	return s
}

// source is a bridge's source side: its flow, then its result entering
// the agent's context (or, between graph nodes, the graph's state).
func (m flowSteps) source(b bridge, state bool) []Step {
	k := flowPart{b.src.fl, b.x, false, state}
	if s, ok := m.parts[k]; ok {
		return s
	}
	ctx := fmt.Sprintf("the result of %s enters the context of agent %s", b.src.r.Tool.Name, b.x.Name)
	if state {
		ctx = fmt.Sprintf("node %s returns it into the state of graph %s", b.src.r.Tool.Name, b.x.Name)
	}
	s := append(append(make([]Step, 0, len(b.src.fl.Steps)+1), m.of(b.src.fl)...), StepAt(b.x.Loc, ctx))
	m.parts[k] = s
	return s
}

// sink is a bridge's sink side: the agent choosing the sink's arguments
// (or the node reading the state), then the sink's flow.
func (m flowSteps) sink(b bridge, state bool) []Step {
	k := flowPart{b.sink.fl, b.x, true, state}
	if s, ok := m.parts[k]; ok {
		return s
	}
	ctx := fmt.Sprintf("agent %s chooses the arguments of %s", b.x.Name, b.sink.r.Tool.Name)
	if state {
		ctx = fmt.Sprintf("node %s reads it from the state of graph %s", b.sink.r.Tool.Name, b.x.Name)
	}
	s := append([]Step{StepAt(b.x.Loc, ctx)}, m.of(b.sink.fl)...)
	m.parts[k] = s
	return s
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
