package policy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
)

func init() {
	Register(Check{Name: "rule-of-two", Doc: "an agent reaches untrusted input, private data and an outward action with no approval on some action path", Run: ruleOfTwo})
	Register(Check{Name: "missing-approval", Doc: "an agent that reads untrusted input can invoke an irreversible or code-executing action with no approval", Run: missingApproval})
}

// leg is one tool giving one leg, with the label decision behind it.
type leg struct {
	r     capgraph.Reached
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

// agentLegs collects the legs an agent reaches. Action legs only count when
// no approval stands before them on that path.
func agentLegs(g *capgraph.Graph, agentID string) legs {
	var out legs
	for _, r := range g.Reach(agentID) {
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
	for _, id := range sortedAgents(g) {
		a := g.Agents[id]
		ls := agentLegs(g, id)
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
		sev, triage := Critical, "confirmed: every leg is backed by code or catalog evidence"
		if by == effects.ByDefault {
			sev = High
			triage = "needs review: a leg rests on the fail-closed default (" + assumed(src, priv, sink) + ")"
		} else if why := unsure(ls.action); why != "" {
			sev, triage = High, "needs review: "+why
		}
		chainType := "direct"
		if src.r.Indirect() || priv.r.Indirect() || sink.r.Indirect() {
			chainType = "indirect"
		}
		f := &Finding{
			ID: fingerprint("rule-of-two", id), Rule: "rule-of-two", Severity: sev, Agent: a.Name, AgentID: id,
			Source: src.name(), Sink: sink.name(), Chain: uniq(src.name(), priv.name(), sink.name()),
			ChainType: chainType, VulnerabilityType: VulnType(sink.label),
			Location: LocationOf(a.Loc), Loc: a.Loc, DecidedBy: string(by), Triage: triage,
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
		for _, l := range append(append(append([]leg{}, ls.untrusted...), ls.private...), ls.action...) {
			f.Related = append(f.Related, StepAt(l.r.Tool.Loc, fmt.Sprintf("%s gives %s (%s)", l.name(), l.label, l.res.DecidedBy)))
		}
		for _, l := range ls.action {
			f.SinkIDs = appendUniq(f.SinkIDs, l.r.Tool.ID)
		}
		f.Remediation = remediation(g, a, ls.action)
		out = append(out, f)
	}
	return out
}

// legSteps shows a leg: the tool, and the code that decides the label.
func legSteps(l leg, what string) []Step {
	msg := fmt.Sprintf("%s: tool %s has %s", what, l.name(), l.label)
	if len(l.r.Via) > 1 {
		msg += " (reached through " + strings.Join(l.r.Via[1:], " → ") + ")"
	}
	steps := []Step{StepAt(l.r.Tool.Loc, msg)}
	if s, ok := l.evidenceLoc(); ok && s.Loc != l.r.Tool.Loc {
		s.Message = fmt.Sprintf("%s [%s]", s.Message, l.res.DecidedBy)
		steps = append(steps, s)
	}
	return steps
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

func assumed(ls ...leg) string {
	var out []string
	for _, l := range ls {
		if l.res.DecidedBy == effects.ByDefault {
			why := ""
			if len(l.res.Evidence) > 0 {
				why = ": " + l.res.Evidence[0].Detail
			}
			out = append(out, fmt.Sprintf("%s of %s%s", l.label, l.name(), why))
		}
	}
	return strings.Join(out, "; ")
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

func missingApproval(in *Input) []*Finding {
	g := in.Graph
	var out []*Finding
	for _, id := range sortedAgents(g) {
		a := g.Agents[id]
		ls := agentLegs(g, id)
		if len(ls.untrusted) == 0 {
			continue
		}
		src := ls.untrusted[0]
		for _, r := range g.Reach(id) {
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
			res := e.Get(why)
			by := weakest(src.res.DecidedBy, res.DecidedBy)
			sev := High
			triage := "confirmed: the action and the untrusted input are backed by evidence"
			if by == effects.ByDefault {
				sev, triage = Medium, "needs review: "+assumed(src, leg{r, why, res})
			} else if r.Use.Unsure != "" {
				sev, triage = Medium, "needs review: "+r.Use.Unsure
			}
			chainType := "direct"
			if r.Indirect() || src.r.Indirect() {
				chainType = "indirect"
			}
			sinkLeg := leg{r, why, res}
			f := &Finding{
				ID: fingerprint("missing-approval", id, r.Tool.ID), Rule: "missing-approval", Severity: sev,
				Agent: a.Name, AgentID: id, Source: src.name(), Sink: r.Tool.Name, Chain: uniq(src.name(), r.Tool.Name),
				ChainType: chainType, VulnerabilityType: VulnType(firstAction(e)),
				Location: LocationOf(a.Loc), Loc: a.Loc, DecidedBy: string(by), Triage: triage,
				InScope: inScope(g, src, sinkLeg), Taxonomy: taxonomyFor("missing-approval", why),
				SinkIDs: []string{r.Tool.ID},
			}
			what := "irreversible action"
			if why == effects.ExecutesCode {
				what = "code-executing action"
			}
			f.Message = fmt.Sprintf("Agent %s reads untrusted input (%s) and can run the %s %s with no human approval", a.Name, src.name(), what, r.Tool.Name)
			f.RiskScore = RiskScore(sev, chainType, 0)
			f.Steps = append([]Step{StepAt(a.Loc, "agent "+a.Name+" is declared here")}, legSteps(src, "untrusted input")...)
			f.Steps = append(f.Steps, legSteps(sinkLeg, what)...)
			f.Related = []Step{StepAt(src.r.Tool.Loc, src.name()+" gives untrusted_input"), StepAt(r.Tool.Loc, fmt.Sprintf("%s is %s", r.Tool.Name, why))}
			f.Remediation = remediation(g, a, []leg{sinkLeg})
			out = append(out, f)
		}
	}
	return out
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
