package policy

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
)

func init() {
	Register(Check{Name: "rule-of-two", Doc: "an agent reaches untrusted input, private data and an outward action with no approval on some action path", Run: ruleOfTwo})
	Register(Check{Name: "missing-approval", Doc: "an agent that reads untrusted input can invoke an irreversible or code-executing action with no approval", Run: missingApproval})
}

// leg is one tool giving one leg, with the label decision behind it. r
// points into the graph's shared reach: an agent's legs are a few words
// each, where a copy of the path and use was most of the checks' garbage.
type leg struct {
	r     *capgraph.Reached
	label effects.Label
	res   *effects.Result
}

func (l leg) name() string { return l.r.Tool.Name }

// evidenceLoc is where a leg is best shown: its first piece of evidence in
// code, else the tool's definition.
func (l leg) evidenceLoc() (Step, bool) {
	for _, ev := range l.res.Evidence {
		if ev.Loc.Valid() {
			return StepAt(ev.Loc, ev.Detail), true
		}
	}
	return Step{}, false
}

type legs struct {
	untrusted, private, action []leg
}

// legsOf collects the legs of an agent's reach. Action legs only count
// when no approval stands before them on that path.
func legsOf(reach []capgraph.Reached) legs {
	var out legs
	for i := range reach {
		r := &reach[i]
		e := r.Tool.Effects
		if e.Has(effects.UntrustedInput) {
			out.untrusted = append(out.untrusted, leg{r, effects.UntrustedInput, e.Get(effects.UntrustedInput)})
		}
		if e.Has(effects.ReadsPrivate) {
			out.private = append(out.private, leg{r, effects.ReadsPrivate, e.Get(effects.ReadsPrivate)})
		}
		for _, l := range []effects.Label{effects.NetworkEgress, effects.WritesState, effects.ExecutesCode} {
			if e.Has(l) && !r.Gated(l) {
				out.action = append(out.action, leg{r, l, e.Get(l)})
				break
			}
		}
	}
	// Evidence beats assumption: show code-backed legs first.
	for _, ls := range [][]leg{out.untrusted, out.private, out.action} {
		sort.SliceStable(ls, func(i, j int) bool {
			return ls[i].res.DecidedBy != effects.ByDefault && ls[j].res.DecidedBy == effects.ByDefault
		})
	}
	return out
}

func names(ls []leg) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range ls {
		if !seen[l.name()] {
			seen[l.name()] = true
			out = append(out, l.name())
		}
	}
	return out
}

func ruleOfTwo(in *Input) []*Finding {
	g := in.Graph
	var out []*Finding
	// An agent upstream in a chain reaches every tool downstream: a leg's
	// related location and a tool's gate are made once, not per agent.
	rel := legRelated{}
	gates := gateMemo{}
	for _, id := range sortedAgents(g) {
		a := g.Agents[id]
		ls := in.legsOf(id)
		if len(ls.untrusted) == 0 || len(ls.private) == 0 || len(ls.action) == 0 {
			continue
		}
		src, priv, sink := ls.untrusted[0], ls.private[0], ls.action[0]
		// Name three different tools when the agent has them: the path is
		// clearer when each leg shows its own tool.
		for _, p := range ls.private {
			if p.r.Tool.ID != src.r.Tool.ID && p.res.DecidedBy != effects.ByDefault {
				priv = p
				break
			}
		}
		by := weakest(src.res.DecidedBy, priv.res.DecidedBy, sink.res.DecidedBy)
		sev := Critical
		if by == effects.ByDefault || unsure(ls.action) != "" {
			sev = High
		}
		chainType := "direct"
		if src.r.Indirect() || priv.r.Indirect() || sink.r.Indirect() {
			chainType = "indirect"
		}
		f := &Finding{
			ID: fingerprint("rule-of-two", id), Rule: "rule-of-two", Severity: sev, Agent: a.Name, AgentID: id,
			Source: src.name(), Sink: sink.name(), Chain: uniq(src.name(), priv.name(), sink.name()),
			ChainType: chainType, VulnerabilityType: VulnType(sink.label),
			Location: LocationOf(a.Loc), Loc: a.Loc, DecidedBy: string(by),
			Legs:     &Legs{Untrusted: names(ls.untrusted), Private: names(ls.private), Action: names(ls.action)},
			InScope:  inScope(g, src, priv, sink),
			Taxonomy: taxonomyFor("rule-of-two", sink.label),
		}
		f.Message = fmt.Sprintf("Agent %s breaks the Rule of Two: it reads untrusted input (%s), reads private data (%s) and can act outward (%s) with no human approval",
			a.Name, brief(f.Legs.Untrusted), brief(f.Legs.Private), brief(f.Legs.Action))
		f.RiskScore = RiskScore(sev, chainType, 0)
		f.Steps = append(f.Steps, StepAt(a.Loc, "agent "+a.Name+" is declared here"))
		for _, l := range []struct {
			lg   leg
			what string
		}{{src, "untrusted input"}, {priv, "private data"}, {sink, "outward action"}} {
			f.Steps = append(f.Steps, legSteps(l.lg, l.what)...)
		}
		f.Related = make([]Step, 0, len(ls.untrusted)+len(ls.private)+len(ls.action))
		for _, part := range [][]leg{ls.untrusted, ls.private, ls.action} {
			for _, l := range part {
				f.Related = append(f.Related, rel.of(l))
			}
		}
		f.SinkIDs = uniqNames(len(ls.action), func(i int) string { return ls.action[i].r.Tool.ID })
		f.Remediation = remediationWith(g, a, ls.action, gates)
		setTriage(f, "every leg is backed by code or catalog evidence", src, priv, sink)
		markUnsure(f, unsure(ls.action))
		out = append(out, f)
	}
	return out
}

// legRelated shares a leg's related location between the findings that
// list it.
type legRelated map[legRelKey]Step

type legRelKey struct {
	tool  *capgraph.Tool
	label effects.Label
	by    effects.Decider
}

func (m legRelated) of(l leg) Step {
	k := legRelKey{l.r.Tool, l.label, l.res.DecidedBy}
	if s, ok := m[k]; ok {
		return s
	}
	s := StepAt(l.r.Tool.Loc, fmt.Sprintf("%s gives %s (%s)", l.name(), l.label, l.res.DecidedBy))
	m[k] = s
	return s
}

// legSteps shows a leg: the tool, and the code that decides the label.
func legSteps(l leg, what string) []Step {
	msg := fmt.Sprintf("%s: tool %s has %s", what, l.name(), l.label)
	if len(l.r.Via) > 1 {
		msg += " (reached through " + hops(l.r.Via[1:]) + ")"
	}
	steps := []Step{StepAt(l.r.Tool.Loc, msg)}
	if s, ok := l.evidenceLoc(); ok && s.Loc != l.r.Tool.Loc {
		s.Message = fmt.Sprintf("%s [%s]", s.Message, l.res.DecidedBy)
		steps = append(steps, s)
	}
	return steps
}

// hops joins a path of agents, eliding the middle of a long one: a step is
// one line, and a finding that stands for many sources has a step per
// source, so a long handoff chain must not repeat itself in every one.
func hops(via []string) string {
	const ends = 2
	if len(via) <= 2*ends+1 {
		return strings.Join(via, " → ")
	}
	return fmt.Sprintf("%s → … %d more … → %s", strings.Join(via[:ends], " → "), len(via)-2*ends, strings.Join(via[len(via)-ends:], " → "))
}

// assumedOf lists the legs that rest on the fail-closed default, each
// with the call or fact that left its label open.
func assumedOf(ls ...leg) []Assumption {
	var out []Assumption
	seen := map[string]bool{}
	for _, l := range ls {
		if l.res == nil || l.res.DecidedBy != effects.ByDefault {
			continue
		}
		key := l.r.Tool.ID + "\x00" + string(l.label)
		if seen[key] {
			continue
		}
		seen[key] = true
		why := ""
		if len(l.res.Evidence) > 0 {
			why = l.res.Evidence[0].Detail
		}
		out = append(out, Assumption{ToolID: l.r.Tool.ID, Tool: l.name(), Label: l.label, Why: why})
	}
	return out
}

// unsure is why no action leg is known to run without approval, or ""
// when one is (a config acg cannot read may put a person before each).
func unsure(action []leg) string {
	for _, l := range action {
		if l.r.Use.Unsure == "" {
			return ""
		}
	}
	if len(action) == 0 {
		return ""
	}
	return action[0].r.Use.Unsure
}

// markUnsure makes a finding that its evidence confirms need review when
// acg cannot tell whether a person approves its action (why says which
// config it could not read, such as a hook's script).
func markUnsure(f *Finding, why string) {
	if why == "" {
		return
	}
	if f.Triage == TriageConfirmed {
		f.Triage, f.TriageReason = TriageNeedsReview, f.TriageReason+", but "+why
	} else {
		f.TriageReason += "; and " + why
	}
}

// setTriage decides a finding's triage from its legs: needs_review when a
// leg rests on the fail-closed default, naming each assumed leg and the
// call behind it; confirmed, for the reason given, otherwise.
func setTriage(f *Finding, confirmed string, ls ...leg) {
	f.Assumed = assumedOf(ls...)
	if len(f.Assumed) == 0 {
		f.Triage, f.TriageReason = TriageConfirmed, confirmed
		return
	}
	f.Triage, f.TriageReason = TriageNeedsReview, assumedReason(f.Assumed)
}

// assumedReason says in words which legs were assumed and why.
func assumedReason(as []Assumption) string {
	const most = 5
	parts := make([]string, 0, min(len(as), most)+1)
	for i, a := range as {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(as)-most))
			break
		}
		p := fmt.Sprintf("%s of %s is assumed", a.Label, a.Tool)
		if a.Why != "" {
			p += " (" + a.Why + ")"
		}
		parts = append(parts, p)
	}
	return "a leg rests on the fail-closed default: " + strings.Join(parts, "; ")
}

func inScope(g *capgraph.Graph, ls ...leg) []string {
	var out []string
	for _, l := range ls {
		for _, id := range l.r.Via {
			if a := g.Agents[id]; a != nil {
				out = appendUniq(out, a.Name)
			}
		}
	}
	return out
}

// VulnType names what an unapproved action of this kind lets an attacker do.
func VulnType(l effects.Label) string {
	switch l {
	case effects.NetworkEgress:
		return "data_exfiltration"
	case effects.ExecutesCode:
		return "remote_code_execution"
	}
	return "unauthorized_state_change"
}

// approvalGroup is one missing-approval finding in the making: one action
// tool as one agent lists it, and every untrusted source that reaches the
// context choosing its arguments, through whichever agents.
type approvalGroup struct {
	owner    *capgraph.Agent
	sink     leg
	reachers []string // agents that reach the tool unapproved, with untrusted input
	srcs     []*leg   // one per source tool, the first reacher's path (shared with its legs)
	got      bits     // source tools listed, by index
	// lead is the agent the finding is for when the owner reads nothing
	// untrusted itself and every reacher runs it as a tool: the nearest
	// reacher, whose context the untrusted input enters and chooses what
	// the owner is asked to do. Where a reacher hands off to the owner,
	// the conversation (and the input in it) passes over: the owner keeps
	// the finding.
	lead      string
	leadDepth int
	carried   bool // some reacher passes its context to the owner
	// named, when set, is the agent the finding is for (leadGroup).
	named *capgraph.Agent
}

// note records a reacher's path to the owner for the attribution above.
func (grp *approvalGroup) note(g *capgraph.Graph, id string, via []string) {
	if id == grp.owner.ID {
		return
	}
	n := len(via)
	if n < 2 || !g.RunsAsTool(via[n-2], grp.owner.ID) {
		grp.carried = true
		return
	}
	if grp.lead == "" || n < grp.leadDepth {
		grp.lead, grp.leadDepth = id, n
	}
}

// agent is the agent the finding names.
func (grp *approvalGroup) agent(g *capgraph.Graph) *capgraph.Agent {
	if grp.named != nil {
		return grp.named
	}
	if grp.lead == "" || grp.carried || slices.Contains(grp.reachers, grp.owner.ID) {
		return grp.owner
	}
	if a := g.Agents[grp.lead]; a != nil {
		return a
	}
	return grp.owner
}

// missingApproval reports each unapproved code-executing or irreversible
// action of an agent that untrusted input can reach: one finding per
// (agent that lists the tool, tool), listing every source, so the count
// grows with agents and tools, never with the pairs of a handoff chain.
func missingApproval(in *Input) []*Finding {
	g := in.Graph
	type groupKey struct{ owner, tool string } // no string built per reach entry
	groups := map[groupKey]*approvalGroup{}
	var order []groupKey
	toolIdx := map[string]int{}
	for _, id := range sortedAgents(g) {
		reach := g.Reach(id)
		ls := in.legsOf(id)
		if len(ls.untrusted) == 0 {
			continue
		}
		// This agent's sources as a set: a group that lists them all
		// already is passed over in a few words, not source by source.
		var have bits
		idx := make([]int, len(ls.untrusted))
		for i, src := range ls.untrusted {
			j, ok := toolIdx[src.r.Tool.ID]
			if !ok {
				j = len(toolIdx)
				toolIdx[src.r.Tool.ID] = j
			}
			idx[i] = j
			have.set(j)
		}
		for i := range reach {
			r := &reach[i]
			e := r.Tool.Effects
			var why effects.Label
			switch {
			case e.Has(effects.ExecutesCode) && !r.Gated(effects.ExecutesCode):
				why = effects.ExecutesCode
			case e.Has(effects.Irreversible) && !r.Gated(effects.Irreversible):
				why = effects.Irreversible
			default:
				continue
			}
			owner := g.Agents[r.Use.Agent]
			if owner == nil {
				owner = g.Agents[id]
			}
			key := groupKey{owner.ID, r.Tool.ID}
			grp := groups[key]
			if grp == nil {
				grp = &approvalGroup{owner: owner, sink: leg{r, why, e.Get(why)}}
				groups[key] = grp
				order = append(order, key)
			}
			if n := len(grp.reachers); n == 0 || grp.reachers[n-1] != id {
				grp.reachers = append(grp.reachers, id) // agents come in order: once each
				grp.note(g, id, r.Via)
			}
			if !grp.got.newIn(have, -1) {
				continue
			}
			for i := range ls.untrusted {
				if !grp.got.has(idx[i]) {
					grp.got.set(idx[i])
					grp.srcs = append(grp.srcs, &ls.untrusted[i])
				}
			}
		}
	}
	out := make([]*Finding, 0, len(order))
	memo := stepMemo{}
	var sets sourceSets
	for _, key := range order {
		grp := groups[key]
		out = append(out, approvalFinding(g, grp, memo, &sets))
		if lg := leadGroup(in, grp); lg != nil {
			out = append(out, approvalFinding(g, lg, memo, &sets))
		}
	}
	return out
}

// leadGroup is the second finding of a group whose owner reads untrusted
// input itself and is run as a tool by the nearest reacher (lead), when
// untrusted input also enters the lead's context from elsewhere (another
// sub-agent, a tool of its own): that input can make the lead ask the
// owner for the action, a path the owner's own finding does not name. The
// lead's finding lists the lead's sources. nil otherwise: a group makes
// at most two findings, so the count still grows with agents and tools.
func leadGroup(in *Input, grp *approvalGroup) *approvalGroup {
	g := in.Graph
	if grp.lead == "" || grp.carried || grp.agent(g) != grp.owner || !slices.Contains(grp.reachers, grp.owner.ID) {
		return nil
	}
	lead := g.Agents[grp.lead]
	if lead == nil {
		return nil
	}
	own := map[string]bool{}
	for _, s := range in.legsOf(grp.owner.ID).untrusted {
		own[s.r.Tool.ID] = true
	}
	ls := in.legsOf(lead.ID)
	elsewhere := false
	srcs := make([]*leg, 0, len(ls.untrusted))
	for i := range ls.untrusted {
		srcs = append(srcs, &ls.untrusted[i])
		elsewhere = elsewhere || !own[ls.untrusted[i].r.Tool.ID]
	}
	if !elsewhere {
		return nil
	}
	return &approvalGroup{owner: grp.owner, sink: grp.sink, reachers: []string{lead.ID}, srcs: srcs, named: lead}
}

// stepMemo shares the steps of a source leg between the findings it
// supports: one source reaches many action tools.
type stepMemo map[stepKey][]Step

type stepKey struct {
	from, owner, tool string
	label             effects.Label
}

func (m stepMemo) leg(l leg, what string) []Step {
	k := stepKey{l.r.Via[0], l.r.Use.Agent, l.r.Tool.ID, l.label}
	if s, ok := m[k]; ok {
		return s
	}
	s := legSteps(l, what)
	m[k] = s
	return s
}

// srcRelated is where a source tool is, for related information.
func srcRelated(s leg) Step {
	return StepAt(s.r.Tool.Loc, s.name()+" gives untrusted_input ("+string(s.res.DecidedBy)+")")
}

func approvalFinding(g *capgraph.Graph, grp *approvalGroup, memo stepMemo, sets *sourceSets) *Finding {
	a, sink, r := grp.agent(g), grp.sink, grp.sink.r
	// Evidence beats assumption: a source read from code leads.
	srcs := grp.srcs
	sort.SliceStable(srcs, func(i, j int) bool {
		return srcs[i].res.DecidedBy != effects.ByDefault && srcs[j].res.DecidedBy == effects.ByDefault
	})
	src := *srcs[0]
	// The finding stands when the action and one source are real: it needs
	// review when the action is assumed, or when every source is.
	by := weakest(src.res.DecidedBy, sink.res.DecidedBy)
	sev := High
	if by == effects.ByDefault || r.Use.Unsure != "" {
		sev = Medium
	}
	chainType := "direct"
	if r.Indirect() || src.r.Indirect() || len(grp.reachers) > 1 || grp.reachers[0] != a.ID {
		chainType = "indirect"
	}
	sources := uniqNames(len(srcs), func(i int) string { return srcs[i].name() })
	scope := uniqNames(len(grp.reachers)+2, func(i int) string {
		if i == 0 {
			return a.Name
		}
		if i == len(grp.reachers)+1 {
			return grp.owner.Name // the agent that lists the tool
		}
		if x := g.Agents[grp.reachers[i-1]]; x != nil {
			return x.Name
		}
		return ""
	})
	f := &Finding{
		ID: fingerprint("missing-approval", a.ID, r.Tool.ID), Rule: "missing-approval", Severity: sev,
		Agent: a.Name, AgentID: a.ID, Source: src.name(), Sources: sources, Sink: r.Tool.Name, Chain: uniq(src.name(), r.Tool.Name),
		ChainType: chainType, VulnerabilityType: VulnType(firstAction(r.Tool.Effects)),
		Location: LocationOf(a.Loc), Loc: a.Loc, DecidedBy: string(by),
		InScope: scope, Taxonomy: taxonomyFor("missing-approval", sink.label),
		SinkIDs: []string{r.Tool.ID},
	}
	what := "irreversible action"
	if sink.label == effects.ExecutesCode {
		what = "code-executing action"
	}
	f.Message = fmt.Sprintf("Agent %s reads untrusted input (%s) and can run the %s %s with no human approval", a.Name, brief(sources), what, r.Tool.Name)
	f.RiskScore = RiskScore(sev, chainType, 0)
	decl := []Step{StepAt(a.Loc, "agent "+a.Name+" is declared here")}
	sinkSteps := legSteps(sink, what)
	sinkRel := StepAt(r.Tool.Loc, fmt.Sprintf("%s is %s", r.Tool.Name, sink.label))
	if len(srcs) == 1 {
		f.Steps = stepsOnce(decl, memo.leg(src, "untrusted input"), sinkSteps)
		f.Related = []Step{srcRelated(src), sinkRel}
	} else {
		// The head is the first source's path; the sources, their steps
		// and their locations are a set shared by every finding that rests
		// on the same ones (a chain's agents upstream of each other).
		f.Steps = stepsOnce(decl, memo.leg(src, "untrusted input"), sinkSteps)
		f.Sources = nil
		f.Set = sets.of(len(srcs), func(i int) []Step { return memo.leg(*srcs[i], "untrusted input") }, func() *SourceSet {
			st := &SourceSet{Tools: sources, Related: make([]Step, 0, len(srcs))}
			parts := make([][]Step, len(srcs))
			for i, s := range srcs {
				parts[i] = memo.leg(*s, "untrusted input")
				st.Related = append(st.Related, srcRelated(*s))
			}
			st.Steps = stepsOnce(parts...)
			return st
		})
		for i := 0; i < len(srcs) && i < MaxPaths; i++ {
			f.Paths = append(f.Paths, joinParts(decl, memo.leg(*srcs[i], "untrusted input"), sinkSteps))
		}
		f.Related = []Step{sinkRel}
	}
	f.Remediation = remediation(g, a, []leg{sink})
	if by == effects.ByDefault && src.res.DecidedBy == effects.ByDefault {
		all := []leg{sink}
		for _, s := range srcs {
			all = append(all, *s)
		}
		setTriage(f, "", all...)
	} else {
		setTriage(f, "the action and an untrusted source are backed by evidence", sink)
	}
	markUnsure(f, r.Use.Unsure)
	return f
}

// MaxPaths bounds the supporting paths a finding keeps whole (SARIF: one
// threadFlow each). Every path's steps are among the finding's Steps, and
// every source and chain in Sources, Chains and Related, however many.
const MaxPaths = 16

// pathSet gathers a finding's supporting paths: each step once, in order,
// into steps (the first path whole, then what the others add), and the
// first MaxPaths paths whole. A path comes in parts that other paths share
// (a source's steps, the sink's): a shared part already added costs one
// lookup, and no path past MaxPaths is built.
type pathSet struct {
	steps []Step
	paths [][]Step
	seen  map[stepID]bool
	parts map[*Step]bool // first steps of the parts added whole
}

type stepID struct {
	file      string
	line, col int
	msg       string
}

// add adds the path made of parts, in order. A part is a slice the
// caller does not change afterwards.
func (ps *pathSet) add(parts ...[]Step) {
	if ps.seen == nil {
		ps.seen, ps.parts = map[stepID]bool{}, map[*Step]bool{}
	}
	if len(ps.paths) < MaxPaths {
		var p []Step
		if len(parts) == 1 {
			p = parts[0]
		} else {
			n := 0
			for _, part := range parts {
				n += len(part)
			}
			p = make([]Step, 0, n)
			for _, part := range parts {
				p = append(p, part...)
			}
		}
		ps.paths = append(ps.paths, p)
	}
	for _, part := range parts {
		if len(part) == 0 || ps.parts[&part[0]] {
			continue
		}
		ps.parts[&part[0]] = true
		for _, s := range part {
			k := stepID{s.File, s.Line, s.Column, s.Message}
			if !ps.seen[k] {
				ps.seen[k] = true
				ps.steps = append(ps.steps, s)
			}
		}
	}
}

// set puts the steps and, when there is more than one, the paths on f.
func (ps *pathSet) set(f *Finding) {
	f.Steps = ps.steps
	if len(ps.paths) > 1 {
		f.Paths = ps.paths
	}
}

func firstAction(e *effects.Effects) effects.Label {
	for _, l := range []effects.Label{effects.NetworkEgress, effects.ExecutesCode, effects.WritesState} {
		if e.Has(l) {
			return l
		}
	}
	return effects.WritesState
}

// brief lists at most five names in a message; the legs and related
// locations carry them all.
func brief(names []string) string {
	const most = 5
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}

func sortedAgents(g *capgraph.Graph) []string {
	ids := make([]string, 0, len(g.Agents))
	for id := range g.Agents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// uniqNames lists the n names name(i) gives, each once, in order, without
// the quadratic search of appendUniq (a finding may name many tools).
func uniqNames(n int, name func(int) string) []string {
	out := make([]string, 0, n)
	seen := make(map[string]bool, n)
	for i := 0; i < n; i++ {
		if x := name(i); x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func uniq(xs ...string) []string {
	var out []string
	for _, x := range xs {
		out = appendUniq(out, x)
	}
	return out
}

func appendUniq(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
