package policy

import (
	"slices"
	"testing"

	"github.com/acg-dev/acg/effects"
)

// TestMissingApprovalKeepsEveryPair: merging by root cause loses no fact.
// Every (agent, unapproved action tool, untrusted source) that the check
// used to report one finding each for, on a generated graph of handoffs,
// sub-agents and agents-as-tools, is in exactly one finding now: the one
// of the agent that lists the tool, naming the reaching agent in its scope
// and the source among its sources.
func TestMissingApprovalKeepsEveryPair(t *testing.T) {
	g := generated(1000)
	fs := missingApproval(&Input{Graph: g})
	type key struct{ owner, tool string }
	byKey := map[key]*Finding{}
	for _, f := range fs {
		k := key{f.AgentID, f.SinkIDs[0]}
		if byKey[k] != nil {
			t.Fatalf("two findings for %v", k)
		}
		byKey[k] = f
	}
	pairs := 0
	for _, id := range sortedAgents(g) {
		ls := agentLegs(g, id)
		if len(ls.untrusted) == 0 {
			continue
		}
		for _, r := range g.Reach(id) {
			e := r.Tool.Effects
			if !(e.Has(effects.ExecutesCode) && !r.Gated(effects.ExecutesCode) || e.Has(effects.Irreversible) && !r.Gated(effects.Irreversible)) {
				continue
			}
			f := byKey[key{r.Use.Agent, r.Tool.ID}]
			if f == nil {
				t.Fatalf("%s reaches %s unapproved with untrusted input, and no finding says so", id, r.Tool.ID)
			}
			if !slices.Contains(f.InScope, g.Agents[id].Name) {
				t.Errorf("%s: scope %v lacks the reaching agent %s", f.ID, f.InScope, g.Agents[id].Name)
			}
			for _, s := range ls.untrusted {
				pairs++
				if !slices.Contains(f.Sources, s.name()) {
					t.Fatalf("%s: sources %v lack %s (reached by %s)", f.ID, f.Sources, s.name(), id)
				}
			}
		}
	}
	if pairs <= len(fs) {
		t.Fatalf("%d pairs in %d findings: the graph should make merging matter", pairs, len(fs))
	}
	t.Logf("%d (agent, tool, source) facts in %d findings", pairs, len(fs))
}
