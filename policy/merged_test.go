package policy

import (
	"slices"
	"strings"
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
		ls := legsOf(g.Reach(id))
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
				if !slices.Contains(f.AllSources(), s.name()) {
					t.Fatalf("%s: sources %v lack %s (reached by %s)", f.ID, f.AllSources(), s.name(), id)
				}
			}
		}
	}
	if pairs <= len(fs) {
		t.Fatalf("%d pairs in %d findings: the graph should make merging matter", pairs, len(fs))
	}
	t.Logf("%d (agent, tool, source) facts in %d findings", pairs, len(fs))
}

// TestMergedFindingIDsAndTriage: the id of a merged finding comes from its
// root cause, so a new source changes its list, not its id; it needs
// review when its action is assumed, naming the leg and the call, and is
// confirmed when one evidence-backed source supports it.
func TestMergedFindingIDsAndTriage(t *testing.T) {
	build := func(sources ...string) []*Finding {
		w := &world{}
		w.agent("a")
		w.tool("rm", fx(effects.WritesState, effects.Irreversible))
		w.use("a", "rm")
		for _, s := range sources {
			e := fx(effects.UntrustedInput)
			if s == "mystery" {
				e = effects.Unknown("calls acme.fetch, whose effects are unknown", loc("t.py", 9))
			}
			w.tool(s, e)
			w.use("a", s)
		}
		return w.run("missing-approval")
	}
	one, two := build("read_web"), build("read_web", "read_mail")
	var rm1, rm2 *Finding
	for _, f := range one {
		if f.Sink == "rm" {
			rm1 = f
		}
	}
	for _, f := range two {
		if f.Sink == "rm" {
			rm2 = f
		}
	}
	if rm1 == nil || rm2 == nil || rm1.ID != rm2.ID || len(rm2.AllSources()) != 2 {
		t.Fatalf("one source %+v, two sources %+v: same id, both listed", rm1, rm2)
	}
	if rm1.Triage != TriageConfirmed || rm1.TriageReason == "" || len(rm1.Assumed) != 0 {
		t.Errorf("evidence-backed: %q %q", rm1.Triage, rm1.TriageReason)
	}
	// An assumed source beside a real one: still confirmed.
	for _, f := range build("mystery", "read_web") {
		if f.Sink == "rm" && f.Triage != TriageConfirmed {
			t.Errorf("a real source confirms the finding: %q %q", f.Triage, f.TriageReason)
		}
	}
	// Only an assumed source: needs review, naming it and the call.
	for _, f := range build("mystery") {
		if f.Sink == "rm" && (f.Triage != TriageNeedsReview || !strings.Contains(f.TriageReason, "untrusted_input of mystery is assumed (calls acme.fetch, whose effects are unknown)") || len(f.Assumed) == 0) {
			t.Errorf("assumed source: %q %q %v", f.Triage, f.TriageReason, f.Assumed)
		}
	}
}
