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
	Register(Check{Name: "dangerous-chain", Doc: "two tools in an agent's reach match the dangerous-chain pattern database (direct, through other agents, or in a cycle of agents), with no approval before the second", Run: dangerousChain})
}

// maxFlowHops bounds indirect chains: the source tool's agent, at most one
// agent in between, the target tool's agent (three agents on the path).
const maxFlowHops = 2

// chainTool is a tool as one agent has it.
type chainTool struct {
	tool *capgraph.Tool
	use  capgraph.Use
	// open is set when nothing gates the use: the tool can be a chain's
	// target (an approval before it breaks the chain).
	open  bool
	roles []string
	sig   string
}

// agentTools groups an agent's own tools by role signature: tools with the
// same roles match the same patterns, so matching is per signature pair,
// not per tool pair.
type agentTools struct {
	id    string
	bySig map[string][]chainTool
	sigs  []string
}

// chainMatcher finds the first pattern for a pair of role signatures.
type chainMatcher struct {
	db    *Patterns
	memo  map[[2]string]int
	roles map[string][]string
}

func (m *chainMatcher) first(a, b string) int {
	key := [2]string{a, b}
	if i, ok := m.memo[key]; ok {
		return i
	}
	i := -1
	ra, rb := m.roles[a], m.roles[b]
	for pi, p := range m.db.Rows {
		src := hasRole(ra, p.Source) || p.user && hasRole(ra, nameKey(p.Source))
		tgt := hasRole(rb, p.Target) || p.user && hasRole(rb, nameKey(p.Target))
		if src && tgt {
			i = pi
			break
		}
	}
	m.memo[key] = i
	return i
}

// nameKey is a tool's exact name among its roles, for user patterns
// (the prefix keeps it apart from role names).
func nameKey(n string) string { return "\x00name:" + n }

func hasRole(rs []string, r string) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// chainGroup is one finding in the making: one target tool as one agent
// lists it, with every chain that leads there, whatever pattern each
// chain matches (one finding per root cause: the open target).
type chainGroup struct {
	tgtAgent string // the agent reported on: it lists the target
	tgt      chainTool
	chains   []chainLink
	seen     map[string]bool // source tools listed
}

// chainLink is one chain of a group: a source tool in srcAgent, the
// agents the data moves through, and how (direct, indirect, cycle), and
// the pattern the pair matches.
type chainLink struct {
	pattern  int
	kind     string
	src      chainTool
	srcAgent string
	path     []string // agents from the source's to the target's
	cycle    []string
}

// chainGroups collects the groups by (target agent, target tool).
type chainGroups struct {
	byKey map[groupKey]*chainGroup
	order []*chainGroup
}

type groupKey struct {
	agent string
	tool  string
}

// add records a chain; a source already listed keeps its first (most
// direct) chain, since direct chains are collected first. A source
// matches one pattern per target (the first for their roles), so keying
// by source keeps every pattern.
func (cg *chainGroups) add(p int, t chainTool, l chainLink) {
	key := groupKey{t.use.Agent, t.tool.ID}
	grp := cg.byKey[key]
	if grp == nil {
		grp = &chainGroup{tgtAgent: t.use.Agent, tgt: t, seen: map[string]bool{}}
		cg.byKey[key] = grp
		cg.order = append(cg.order, grp)
	}
	if grp.seen[l.src.tool.ID] {
		return
	}
	grp.seen[l.src.tool.ID] = true
	l.pattern = p
	grp.chains = append(grp.chains, l)
}

func dangerousChain(in *Input) []*Finding {
	g := in.Graph
	db, err := userPatterns(in.ChainPatterns)
	if err != nil {
		db = DefaultPatterns() // the config parser validates rows; never lose the built-ins
	}
	m := &chainMatcher{db: db, memo: map[[2]string]int{}, roles: map[string][]string{}}
	userRows := len(in.ChainPatterns) > 0
	agents := map[string]*agentTools{}
	for _, u := range g.Uses {
		t := g.Tools[u.Tool]
		if t == nil || t.Effects == nil || (len(t.Effects.Roles) == 0 && !userRows) {
			continue
		}
		var roles []string
		for _, r := range t.Effects.Roles {
			roles = appendUniq(roles, db.Canonical(r))
		}
		if userRows {
			roles = append(roles, nameKey(t.Name)) // only user rows may name tools
		}
		sort.Strings(roles)
		sig := strings.Join(roles, ",")
		m.roles[sig] = roles
		at := agents[u.Agent]
		if at == nil {
			at = &agentTools{id: u.Agent, bySig: map[string][]chainTool{}}
			agents[u.Agent] = at
		}
		if _, ok := at.bySig[sig]; !ok {
			at.sigs = append(at.sigs, sig)
		}
		at.bySig[sig] = append(at.bySig[sig], chainTool{tool: t, use: u, open: !gatedUse(t, u), roles: roles, sig: sig})
	}
	ids := make([]string, 0, len(agents))
	for id, at := range agents {
		sort.Strings(at.sigs)
		for _, s := range at.sigs {
			ts := at.bySig[s]
			sort.Slice(ts, func(i, j int) bool {
				return ts[i].tool.Name < ts[j].tool.Name || ts[i].tool.Name == ts[j].tool.Name && ts[i].tool.ID < ts[j].tool.ID
			})
		}
		ids = append(ids, id)
	}
	sort.Strings(ids)

	cg := &chainGroups{byKey: map[groupKey]*chainGroup{}}
	// Direct: both tools in one agent's own tools.
	for _, id := range ids {
		at := agents[id]
		for _, a := range at.sigs {
			for _, b := range at.sigs {
				p := m.first(a, b)
				if p < 0 {
					continue
				}
				for _, t := range at.bySig[b] {
					if !t.open {
						continue
					}
					for _, s := range at.bySig[a] {
						if s.tool.ID != t.tool.ID {
							cg.add(p, t, chainLink{kind: "direct", src: s, srcAgent: id, path: []string{id}})
						}
					}
				}
			}
		}
	}
	// Cycles: a source in one agent of a cycle, an open target in another.
	cyclePaths := map[[2]string][]string{}
	for _, cyc := range g.AgentCycles() {
		for _, pid := range cyc {
			pa := agents[pid]
			if pa == nil {
				continue
			}
			for _, qid := range cyc {
				qa := agents[qid]
				if qa == nil || qid == pid {
					continue
				}
				for _, a := range pa.sigs {
					for _, b := range qa.sigs {
						p := m.first(a, b)
						if p < 0 {
							continue
						}
						for _, t := range qa.bySig[b] {
							if !t.open {
								continue
							}
							for _, s := range pa.bySig[a] {
								if s.tool.ID == t.tool.ID {
									continue
								}
								k := [2]string{pid, qid}
								path, ok := cyclePaths[k]
								if !ok {
									path = g.CyclePath(pid, qid)
									cyclePaths[k] = path
								}
								cg.add(p, t, chainLink{kind: "cycle", src: s, srcAgent: pid, path: path, cycle: cyc})
							}
						}
					}
				}
			}
		}
	}
	// Indirect: the target's agent is within maxFlowHops of the source's.
	for _, pid := range ids {
		pa := agents[pid]
		pc := g.CycleOf(pid)
		flow := g.FlowPaths(pid, maxFlowHops)
		if len(flow) == 0 {
			continue
		}
		qids := make([]string, 0, len(flow))
		for q := range flow {
			qids = append(qids, q)
		}
		sort.Slice(qids, func(i, j int) bool {
			if len(flow[qids[i]]) != len(flow[qids[j]]) {
				return len(flow[qids[i]]) < len(flow[qids[j]])
			}
			return qids[i] < qids[j]
		})
		for _, qid := range qids {
			qa := agents[qid]
			if qa == nil || qid == pid || (pc >= 0 && g.CycleOf(qid) == pc) {
				continue
			}
			for _, a := range pa.sigs {
				for _, b := range qa.sigs {
					p := m.first(a, b)
					if p < 0 {
						continue
					}
					for _, t := range qa.bySig[b] {
						if !t.open {
							continue
						}
						for _, s := range pa.bySig[a] {
							if s.tool.ID != t.tool.ID {
								cg.add(p, t, chainLink{kind: "indirect", src: s, srcAgent: pid, path: flow[qid]})
							}
						}
					}
				}
			}
		}
	}
	out := make([]*Finding, 0, len(cg.order))
	for _, grp := range cg.order {
		out = append(out, chainFinding(g, db, grp))
	}
	return out
}

// gatedUse reports whether an approval stands before every call of a tool
// by one agent: on the use, on the tool, or inside the tool's code before
// each of its actions.
func gatedUse(t *capgraph.Tool, u capgraph.Use) bool {
	if len(u.Gates) > 0 {
		return true
	}
	if _, ok := t.Gated(); ok {
		return true
	}
	acts := 0
	for _, l := range []effects.Label{effects.NetworkEgress, effects.WritesState, effects.ExecutesCode} {
		if t.Effects.Has(l) {
			acts++
			if !t.Effects.Get(l).Gated() {
				return false
			}
		}
	}
	return acts > 0
}

// kindOrder ranks chain kinds: the finding shows its most direct chain.
var kindOrder = map[string]int{"direct": 0, "cycle": 1, "indirect": 2}

func chainFinding(g *capgraph.Graph, db *Patterns, grp *chainGroup) *Finding {
	t := grp.tgt
	scope := g.Agents[grp.tgtAgent]
	links := grp.chains
	// The patterns the chains match, in the database's order: the first
	// names the finding (its id stays what it was when it was the only
	// one), the most severe gives the severity.
	var pats []int
	for _, x := range links {
		if !slices.Contains(pats, x.pattern) {
			pats = append(pats, x.pattern)
		}
	}
	slices.Sort(pats)
	p0 := db.Rows[pats[0]]
	sev, _ := ParseSeverity(p0.Risk)
	for _, pi := range pats[1:] {
		if s, _ := ParseSeverity(db.Rows[pi].Risk); s.Rank() > sev.Rank() {
			sev = s
		}
	}
	// The chain shown: the most direct, evidence before assumption.
	sort.SliceStable(links, func(i, j int) bool {
		ki, kj := kindOrder[links[i].kind], kindOrder[links[j].kind]
		if ki != kj {
			return ki < kj
		}
		return !assumedRole(links[i].src, db.Rows[links[i].pattern].Source) && assumedRole(links[j].src, db.Rows[links[j].pattern].Source)
	})
	l := links[0]
	p := db.Rows[l.pattern]
	s := l.src
	tgtBy := t.tool.Effects.RoleDecider(p.Target)
	srcBy := s.tool.Effects.RoleDecider(p.Source)
	by := weakest(srcBy, tgtBy)
	var inScope []string
	seenScope := map[string]bool{}
	centrality := g.Centrality(t.tool.ID)
	sources := uniqNames(len(links), func(i int) string { return links[i].src.tool.Name })
	for _, x := range links {
		agentsOn := x.path
		if x.kind == "cycle" {
			agentsOn = x.cycle
		}
		for _, id := range agentsOn {
			if a := g.Agents[id]; a != nil && !seenScope[a.Name] {
				seenScope[a.Name] = true
				inScope = append(inScope, a.Name)
			}
		}
	}
	inScope = appendUniq(inScope, scope.Name)
	agentsOn := l.path
	if l.kind == "cycle" {
		agentsOn = l.cycle
	}
	for _, id := range append(append([]string{}, agentsOn...), s.tool.ID) {
		if c := g.Centrality(id); c > centrality {
			centrality = c
		}
	}
	f := &Finding{
		ID:   fingerprint("dangerous-chain", grp.tgtAgent, p0.Source, p0.Target, t.tool.ID),
		Rule: "dangerous-chain", Severity: sev, Agent: scope.Name, AgentID: scope.ID,
		Source: s.tool.Name, Sources: sources, Sink: t.tool.Name, InScope: inScope, Chain: []string{s.tool.Name, t.tool.Name},
		ChainType: l.kind, VulnerabilityType: p.Type,
		Location: LocationOf(scope.Loc), Loc: scope.Loc, DecidedBy: string(by),
		Taxonomy: chainTaxonomy(p),
	}
	for _, pi := range pats {
		f.Patterns = append(f.Patterns, db.Rows[pi].ID)
		if pi != l.pattern {
			f.Taxonomy = mergeTaxonomy(f.Taxonomy, chainTaxonomy(db.Rows[pi]))
		}
	}
	f.RiskScore = RiskScore(sev, l.kind, centrality)
	how := ""
	switch l.kind {
	case "indirect":
		how = fmt.Sprintf(" through %s", agentNames(g, l.path))
	case "cycle":
		how = fmt.Sprintf(" in the cycle of agents %s", agentNames(g, l.cycle))
	}
	more := ""
	if len(sources) > 1 {
		more = fmt.Sprintf(" (and from %s)", brief(sources[1:]))
	}
	f.Message = fmt.Sprintf("Agent %s can chain %s (%s) into %s (%s)%s%s: %s (%s pattern %s) with no approval before %s",
		scope.Name, s.tool.Name, p.Source, t.tool.Name, p.Target, how, more, strings.ReplaceAll(p.Type, "_", " "), p.Category, p.ID, t.tool.Name)
	if len(pats) > 1 {
		var also []string
		for _, pi := range pats {
			if pi != l.pattern {
				also = append(also, db.Rows[pi].ID+" ("+strings.ReplaceAll(db.Rows[pi].Type, "_", " ")+")")
			}
		}
		f.Message += "; its chains also match pattern " + brief(also)
	}
	// Per pattern: the target's part of each path (shared by the chains
	// of that pattern) and whether the chain stands on evidence (its
	// target's role and one source's are real).
	tails := map[int][]Step{}
	tgtAssumed := map[int]bool{}
	realSrc := map[int]bool{}
	for _, pi := range pats {
		pp := db.Rows[pi]
		by := t.tool.Effects.RoleDecider(pp.Target)
		tails[pi] = chainTail(pp, t, by)
		tgtAssumed[pi] = by == effects.ByDefault || by == ""
	}
	var ps pathSet
	for _, x := range links {
		px := db.Rows[x.pattern]
		f.Chains = append(f.Chains, []string{x.src.tool.Name, t.tool.Name})
		ps.add(chainSteps(g, px, x, tails[x.pattern]))
		f.Related = append(f.Related, StepAt(x.src.tool.Loc, x.src.tool.Name+" has role "+px.Source))
		realSrc[x.pattern] = realSrc[x.pattern] || !assumedRole(x.src, px.Source)
	}
	ps.set(f)
	var rems []string
	for _, pi := range pats {
		pp := db.Rows[pi]
		f.Related = append(f.Related, StepAt(t.tool.Loc, fmt.Sprintf("%s has role %s", t.tool.Name, pp.Target)))
		if !slices.Contains(rems, pp.Remediation) {
			rems = append(rems, pp.Remediation)
		}
	}
	f.Related = slices.CompactFunc(f.Related, func(a, b Step) bool { return a == b })
	f.SinkIDs = []string{t.tool.ID}
	for _, gr := range t.use.Grants {
		f.Fix = append(f.Fix, gr.Fix...)
	}
	f.Remediation = strings.Join(rems, ". ") + ". " + chainGate(g, grp, t)
	// The finding stands when one pattern's chain does; otherwise every
	// assumption behind each pattern is listed.
	confirmed := false
	for _, pi := range pats {
		confirmed = confirmed || !tgtAssumed[pi] && realSrc[pi]
	}
	var assumed []chainTool
	if !confirmed {
		tgt := false
		for _, pi := range pats {
			tgt = tgt || tgtAssumed[pi]
		}
		if tgt {
			assumed = append(assumed, t)
		}
		for _, x := range links {
			if !realSrc[x.pattern] {
				assumed = append(assumed, x.src)
			}
		}
	}
	for _, x := range assumed {
		f.Assumed = append(f.Assumed, defaultLabels(x.tool)...)
	}
	f.Triage, f.TriageReason = TriageConfirmed, fmt.Sprintf("%s has role %s (%s) and %s has role %s (%s); pattern %s", s.tool.Name, p.Source, srcBy, t.tool.Name, p.Target, tgtBy, p.ID)
	if confirmed && (tgtAssumed[l.pattern] || !realSrc[l.pattern]) {
		// the chain shown rests on an assumption; name one that does not
		for _, x := range links {
			if px := db.Rows[x.pattern]; !tgtAssumed[x.pattern] && !assumedRole(x.src, px.Source) {
				f.TriageReason = fmt.Sprintf("%s has role %s (%s) and %s has role %s (%s); pattern %s", x.src.tool.Name, px.Source,
					x.src.tool.Effects.RoleDecider(px.Source), t.tool.Name, px.Target, t.tool.Effects.RoleDecider(px.Target), px.ID)
				break
			}
		}
	}
	if !confirmed {
		names := uniqNames(len(assumed), func(i int) string { return assumed[i].tool.Name })
		f.Triage = TriageNeedsReview
		f.TriageReason = fmt.Sprintf("a role rests on the fail-closed default: %s; pattern %s", brief(names), strings.Join(f.Patterns, ", "))
		if len(f.Assumed) > 0 {
			f.TriageReason = assumedReason(f.Assumed) + "; pattern " + strings.Join(f.Patterns, ", ")
		}
	}
	markUnsure(f, t.use.Unsure)
	return f
}

// mergeTaxonomy adds b's entries to a's.
func mergeTaxonomy(a, b Taxonomy) Taxonomy {
	for _, e := range b.OWASPASI {
		a.OWASPASI = appendUniq(a.OWASPASI, e)
	}
	for _, e := range b.OWASPLLM {
		a.OWASPLLM = appendUniq(a.OWASPLLM, e)
	}
	for _, e := range b.ATLAS {
		a.ATLAS = appendUniq(a.ATLAS, e)
	}
	return a
}

func assumedRole(c chainTool, role string) bool {
	by := c.tool.Effects.RoleDecider(role)
	return by == effects.ByDefault || by == ""
}

// defaultLabels lists the labels of a tool that only the fail-closed
// default gives it.
func defaultLabels(t *capgraph.Tool) []Assumption {
	var out []Assumption
	for _, l := range effects.Labels {
		r := t.Effects.Get(l)
		if !r.Value || r.DecidedBy != effects.ByDefault {
			continue
		}
		why := ""
		if len(r.Evidence) > 0 {
			why = r.Evidence[0].Detail
		}
		out = append(out, Assumption{ToolID: t.ID, Tool: t.Name, Label: l, Why: why})
	}
	return out
}

// chainSteps is one chain's path: the source's agent, the source, the
// agents the data moves through, then tail (the target and the grants
// that let it run, the same for every chain of a finding).
func chainSteps(g *capgraph.Graph, p Pattern, l chainLink, tail []Step) []Step {
	out := make([]Step, 0, 2+len(l.path)+len(tail))
	if a := g.Agents[l.srcAgent]; a != nil {
		out = append(out, StepAt(a.Loc, "agent "+a.Name+" is declared here"))
	}
	out = append(out, StepAt(l.src.tool.Loc, "source: "+l.src.tool.Name+" has role "+p.Source+" ("+string(l.src.tool.Effects.RoleDecider(p.Source))+")"))
	for i := 1; i < len(l.path); i++ {
		if a := g.Agents[l.path[i]]; a != nil {
			out = append(out, StepAt(a.Loc, "data moves from "+g.Agents[l.path[i-1]].Name+" to "+a.Name))
		}
	}
	return append(out, tail...)
}

func chainTail(p Pattern, t chainTool, tgtBy effects.Decider) []Step {
	out := []Step{StepAt(t.tool.Loc, "target: "+t.tool.Name+" has role "+p.Target+" ("+string(tgtBy)+")")}
	for _, gr := range t.use.Grants {
		out = append(out, StepAt(gr.Loc, gr.Why))
	}
	return out
}

// chainGate names the gate that breaks the chain before its target.
func chainGate(g *capgraph.Graph, grp *chainGroup, t chainTool) string {
	owner := g.Agents[grp.tgtAgent]
	var res *effects.Result
	for _, l := range []effects.Label{effects.NetworkEgress, effects.ExecutesCode, effects.WritesState} {
		if t.tool.Effects.Has(l) {
			res = t.tool.Effects.Get(l)
			break
		}
	}
	if res == nil {
		res = &effects.Result{}
	}
	return gateFor(owner, t.tool, t.use, res)
}

func agentNames(g *capgraph.Graph, ids []string) string {
	var out []string
	for _, id := range ids {
		if a := g.Agents[id]; a != nil {
			out = append(out, a.Name)
		}
	}
	return strings.Join(out, " → ")
}

// chainTaxonomy maps a pattern to the catalogues by what its target does.
func chainTaxonomy(p Pattern) Taxonomy {
	t := Taxonomy{OWASPLLM: []string{LLM06}, OWASPASI: []string{ASI02}, ATLAS: []string{ATLASToolInvocation}}
	v := p.Type
	switch {
	case strings.Contains(v, "exfil") || strings.Contains(v, "leak") || strings.Contains(v, "pii"):
		t.OWASPLLM = appendUniq(t.OWASPLLM, LLM02)
		t.ATLAS = appendUniq(t.ATLAS, ATLASExfilViaTool)
	case strings.Contains(v, "rce") || strings.Contains(v, "code_execution") || strings.Contains(v, "shell") || strings.Contains(v, "command_injection"):
		t.OWASPASI = appendUniq(t.OWASPASI, ASI05)
	case strings.Contains(v, "privilege") || strings.Contains(v, "authentication") || strings.Contains(v, "session"):
		t.OWASPASI = appendUniq(t.OWASPASI, ASI03)
	}
	if p.Category == "a2a_delegation" || p.Category == "claude_code" && strings.HasPrefix(p.Source, "spawn") {
		t.OWASPASI = appendUniq(t.OWASPASI, ASI07)
	}
	return t
}
