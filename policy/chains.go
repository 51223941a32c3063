package policy

import (
	"fmt"
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

// maxListed caps the tools a finding lists beside its representative pair.
const maxListed = 20

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

// chainGroup is one finding in the making: every pair of one pattern in
// one scope.
type chainGroup struct {
	pattern  int
	kind     string // direct, indirect, cycle
	scope    string // the agent reported on
	path     []string
	src, tgt chainTool
	srcs     []chainTool
	tgts     []chainTool
	srcAgent string
	tgtAgent string
	cycle    []string
	seenSrc  map[string]bool
	seenTgt  map[string]bool
}

// full reports whether the group lists as many tools as it shows: more
// pairs would change nothing, so the search can skip them.
func (g *chainGroup) full() bool {
	return g != nil && len(g.srcs) >= maxListed && len(g.tgts) >= maxListed
}

func (g *chainGroup) add(s, t chainTool) {
	if g.seenSrc == nil {
		g.seenSrc, g.seenTgt = map[string]bool{}, map[string]bool{}
		g.src, g.tgt = s, t
	}
	if !g.seenSrc[s.tool.ID] && len(g.srcs) < maxListed {
		g.seenSrc[s.tool.ID] = true
		g.srcs = append(g.srcs, s)
	}
	if !g.seenTgt[t.tool.ID] && len(g.tgts) < maxListed {
		g.seenTgt[t.tool.ID] = true
		g.tgts = append(g.tgts, t)
	}
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

	var groups []*chainGroup
	direct := map[[2]any]bool{} // (agent, pattern)
	// Direct: both tools in one agent's own tools.
	for _, id := range ids {
		at := agents[id]
		byPattern := map[int]*chainGroup{}
		for _, a := range at.sigs {
			for _, b := range at.sigs {
				p := m.first(a, b)
				if p < 0 || byPattern[p].full() {
					continue
				}
				for _, s := range at.bySig[a] {
					for _, t := range at.bySig[b] {
						if !t.open || s.tool.ID == t.tool.ID {
							continue
						}
						grp := byPattern[p]
						if grp == nil {
							grp = &chainGroup{pattern: p, kind: "direct", scope: id, path: []string{id}, srcAgent: id, tgtAgent: id}
							byPattern[p] = grp
						}
						grp.add(s, t)
					}
				}
			}
		}
		for p, grp := range byPattern {
			direct[[2]any{id, p}] = true
			groups = append(groups, grp)
		}
	}
	// Cycles: a source in one agent of a cycle, an open target in another.
	cycleDone := map[[2]int]bool{}
	for ci, cyc := range g.AgentCycles() {
		byPattern := map[int]*chainGroup{}
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
						if p < 0 || byPattern[p].full() || cycleHasDirect(direct, cyc, p) {
							continue
						}
						for _, s := range pa.bySig[a] {
							for _, t := range qa.bySig[b] {
								if !t.open || s.tool.ID == t.tool.ID {
									continue
								}
								grp := byPattern[p]
								if grp == nil {
									grp = &chainGroup{pattern: p, kind: "cycle", scope: cyc[0], cycle: cyc, srcAgent: pid, tgtAgent: qid}
									byPattern[p] = grp
								}
								grp.add(s, t)
							}
						}
					}
				}
			}
		}
		for p, grp := range byPattern {
			grp.path = g.CyclePath(grp.srcAgent, grp.tgtAgent)
			cycleDone[[2]int{ci, p}] = true
			groups = append(groups, grp)
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
		byPattern := map[int]*chainGroup{}
		for _, qid := range qids {
			qa := agents[qid]
			if qa == nil || (pc >= 0 && g.CycleOf(qid) == pc) {
				continue
			}
			for _, a := range pa.sigs {
				for _, b := range qa.sigs {
					p := m.first(a, b)
					if p < 0 || byPattern[p].full() || direct[[2]any{pid, p}] || (pc >= 0 && cycleDone[[2]int{pc, p}]) {
						continue
					}
					for _, s := range pa.bySig[a] {
						for _, t := range qa.bySig[b] {
							if !t.open || s.tool.ID == t.tool.ID {
								continue
							}
							grp := byPattern[p]
							if grp == nil {
								grp = &chainGroup{pattern: p, kind: "indirect", scope: pid, path: flow[qid], srcAgent: pid, tgtAgent: qid}
								byPattern[p] = grp
							}
							grp.add(s, t)
						}
					}
				}
			}
		}
		for _, grp := range byPattern {
			groups = append(groups, grp)
		}
	}
	out := make([]*Finding, 0, len(groups))
	for _, grp := range groups {
		out = append(out, chainFinding(g, db.Rows[grp.pattern], grp))
	}
	return out
}

func cycleHasDirect(direct map[[2]any]bool, cyc []string, p int) bool {
	for _, a := range cyc {
		if direct[[2]any{a, p}] {
			return true
		}
	}
	return false
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

func chainFinding(g *capgraph.Graph, p Pattern, grp *chainGroup) *Finding {
	sev, _ := ParseSeverity(p.Risk)
	s, t := grp.src, grp.tgt
	scope := g.Agents[grp.scope]
	srcBy := s.tool.Effects.RoleDecider(p.Source)
	tgtBy := t.tool.Effects.RoleDecider(p.Target)
	by := weakest(srcBy, tgtBy)
	var inScope []string
	agentsOn := grp.path
	if grp.kind == "cycle" {
		agentsOn = grp.cycle
	}
	for _, id := range agentsOn {
		if a := g.Agents[id]; a != nil {
			inScope = appendUniq(inScope, a.Name)
		}
	}
	centrality := 0.0
	for _, id := range append(append([]string{}, agentsOn...), s.tool.ID, t.tool.ID) {
		if c := g.Centrality(id); c > centrality {
			centrality = c
		}
	}
	f := &Finding{
		ID:   fingerprint("dangerous-chain", grp.scope, p.Source, p.Target, grp.kind),
		Rule: "dangerous-chain", Severity: sev, Agent: scope.Name, AgentID: scope.ID,
		Source: s.tool.Name, Sink: t.tool.Name, InScope: inScope, Chain: []string{s.tool.Name, t.tool.Name},
		ChainType: grp.kind, VulnerabilityType: p.Type,
		Location: LocationOf(scope.Loc), Loc: scope.Loc, DecidedBy: string(by),
		Taxonomy: chainTaxonomy(p),
	}
	f.RiskScore = RiskScore(sev, grp.kind, centrality)
	f.Triage = fmt.Sprintf("confirmed: %s has role %s (%s) and %s has role %s (%s); pattern %s", s.tool.Name, p.Source, srcBy, t.tool.Name, p.Target, tgtBy, p.ID)
	if by == effects.ByDefault || by == "" {
		f.Triage = "needs review: " + f.Triage[len("confirmed: "):]
	} else if t.use.Unsure != "" {
		f.Triage = "needs review: " + f.Triage[len("confirmed: "):] + "; but " + t.use.Unsure
	}
	how := ""
	switch grp.kind {
	case "indirect":
		how = fmt.Sprintf(" through %s", agentNames(g, grp.path))
	case "cycle":
		how = fmt.Sprintf(" in the cycle of agents %s", agentNames(g, grp.cycle))
	}
	f.Message = fmt.Sprintf("Agent %s can chain %s (%s) into %s (%s)%s: %s (%s pattern %s) with no approval before %s",
		scope.Name, s.tool.Name, p.Source, t.tool.Name, p.Target, how, strings.ReplaceAll(p.Type, "_", " "), p.Category, p.ID, t.tool.Name)
	f.Steps = append(f.Steps, StepAt(scope.Loc, "agent "+scope.Name+" is declared here"))
	f.Steps = append(f.Steps, StepAt(s.tool.Loc, fmt.Sprintf("source: %s has role %s (%s)", s.tool.Name, p.Source, srcBy)))
	for i := 1; i < len(grp.path); i++ {
		if a := g.Agents[grp.path[i]]; a != nil {
			f.Steps = append(f.Steps, StepAt(a.Loc, fmt.Sprintf("data moves from %s to %s", g.Agents[grp.path[i-1]].Name, a.Name)))
		}
	}
	f.Steps = append(f.Steps, StepAt(t.tool.Loc, fmt.Sprintf("target: %s has role %s (%s)", t.tool.Name, p.Target, tgtBy)))
	for _, gr := range t.use.Grants {
		f.Steps = append(f.Steps, StepAt(gr.Loc, gr.Why))
	}
	for _, x := range grp.srcs {
		f.Related = append(f.Related, StepAt(x.tool.Loc, fmt.Sprintf("%s has role %s", x.tool.Name, p.Source)))
	}
	for _, x := range grp.tgts {
		f.Related = append(f.Related, StepAt(x.tool.Loc, fmt.Sprintf("%s has role %s", x.tool.Name, p.Target)))
		f.SinkIDs = appendUniq(f.SinkIDs, x.tool.ID)
		for _, gr := range x.use.Grants {
			f.Fix = append(f.Fix, gr.Fix...)
		}
	}
	f.Remediation = p.Remediation + ". " + chainGate(g, grp, t)
	return f
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
