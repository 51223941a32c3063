package capgraph

import (
	"testing"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

func TestBuildToleratesDuplicatesAndSelfEdges(t *testing.T) {
	e := effects.Unknown("x", extract.Loc{})
	g := Build(
		[]*Agent{{ID: "a"}, {ID: "b"}},
		[]*Tool{{ID: "t", Effects: e}},
		nil,
		[]Use{{Agent: "a", Tool: "t"}, {Agent: "a", Tool: "t"}, {Agent: "zz", Tool: "t"}},
		[]Link{{From: "a", To: "a", Kind: EdgeHandoff}, {From: "a", To: "b", Kind: EdgeHandoff}, {From: "a", To: "b", Kind: EdgeSubAgent}},
	)
	if len(g.Uses) != 1 {
		t.Errorf("uses = %d, want 1 (duplicate and dangling dropped)", len(g.Uses))
	}
	if ks := g.EdgeKinds("a", "b"); len(ks) != 2 {
		t.Errorf("a→b kinds = %v, want handoff and subagent", ks)
	}
	if len(g.Links) != 2 {
		t.Errorf("links = %d, self edge dropped", len(g.Links))
	}
}

func TestReachIsDeterministicAndPrefersUngatedPaths(t *testing.T) {
	e := effects.Unknown("x", extract.Loc{})
	gate := &extract.Approval{Kind: "interrupt_before", Nodes: []string{"tools"}}
	var agents []*Agent
	for _, id := range []string{"root", "b1", "b2", "b3", "b4"} {
		agents = append(agents, &Agent{ID: id})
	}
	g := Build(agents, []*Tool{{ID: "send", Effects: e}}, nil,
		[]Use{{Agent: "b1", Tool: "send", Gates: []*extract.Approval{gate}}, {Agent: "b4", Tool: "send"}},
		[]Link{{From: "root", To: "b1", Kind: EdgeHandoff}, {From: "root", To: "b2", Kind: EdgeHandoff},
			{From: "b2", To: "b3", Kind: EdgeHandoff}, {From: "b3", To: "b4", Kind: EdgeHandoff}})
	for i := 0; i < 20; i++ {
		r := g.Reach("root")
		if len(r) != 1 {
			t.Fatalf("reach = %d", len(r))
		}
		if r[0].Gate != nil {
			t.Fatal("the ungated path through b4 must win over the gated one through b1")
		}
		if got := r[0].Via; len(got) != 4 || got[3] != "b4" {
			t.Fatalf("via = %v", got)
		}
	}
}
