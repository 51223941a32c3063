package capgraph

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/graph/network"
)

// testGraph: clusters of agents with tools, handoffs inside each cluster
// (some both ways) and an agent-as-tool.
func testGraph(clusters int) *Graph {
	rng := rand.New(rand.NewSource(7))
	var agents []*Agent
	var tools []*Tool
	var uses []Use
	var links []Link
	for c := 0; c < clusters; c++ {
		for a := 0; a < 4; a++ {
			id := fmt.Sprintf("c%d.a%d", c, a)
			agents = append(agents, &Agent{ID: id, Name: id})
			for t := 0; t < 3; t++ {
				tid := fmt.Sprintf("c%d.a%d.t%d", c, a, t)
				tools = append(tools, &Tool{ID: tid, Name: tid})
				uses = append(uses, Use{Agent: id, Tool: tid})
			}
		}
		for k := 0; k < 5; k++ {
			links = append(links, Link{From: fmt.Sprintf("c%d.a%d", c, rng.Intn(4)), To: fmt.Sprintf("c%d.a%d", c, rng.Intn(4)), Kind: EdgeHandoff})
		}
		tid := fmt.Sprintf("c%d.astool", c)
		tools = append(tools, &Tool{ID: tid, Name: tid, Agent: fmt.Sprintf("c%d.a3", c)})
		uses = append(uses, Use{Agent: fmt.Sprintf("c%d.a0", c), Tool: tid})
	}
	return Build(agents, tools, nil, uses, links)
}

func TestCentralityMatchesWholeGraph(t *testing.T) {
	g := testGraph(6)
	whole := network.Betweenness(g.g)
	n := float64(len(g.names))
	for id, name := range g.names {
		want := whole[int64(id)] / ((n - 1) * (n - 2))
		if got := g.Centrality(name); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

func TestCyclesAndFlow(t *testing.T) {
	agents := []*Agent{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	links := []Link{{From: "a", To: "b", Kind: EdgeHandoff}, {From: "b", To: "a", Kind: EdgeHandoff},
		{From: "b", To: "c", Kind: EdgeSubAgent}, {From: "c", To: "d", Kind: EdgeHandoff}}
	g := Build(agents, nil, nil, nil, links)
	if cs := g.AgentCycles(); len(cs) != 1 || fmt.Sprint(cs[0]) != "[a b]" || g.CycleOf("c") != -1 {
		t.Errorf("cycles = %v", cs)
	}
	flow := g.FlowPaths("d", 2)
	if len(flow) != 0 {
		t.Errorf("d hands nothing on: %v", flow)
	}
	flow = g.FlowPaths("c", 2)
	if fmt.Sprint(flow["a"]) != "[c b a]" || fmt.Sprint(flow["d"]) != "[c d]" {
		t.Errorf("a sub-agent returns to its caller: %v", flow)
	}
	if p := g.CyclePath("b", "a"); fmt.Sprint(p) != "[b a]" {
		t.Errorf("cycle path = %v", p)
	}
}

// TestBetweennessMatchesGonumDense checks betweenness.go against gonum on
// one large component with many equal-length paths (random handoffs both
// ways, agents-as-tools), where predecessor order and path counts matter.
func TestBetweennessMatchesGonumDense(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var agents []*Agent
	var tools []*Tool
	var uses []Use
	var links []Link
	const n = 60
	for a := 0; a < n; a++ {
		id := fmt.Sprintf("a%d", a)
		agents = append(agents, &Agent{ID: id, Name: id})
		for k := 0; k < 2; k++ {
			tid := fmt.Sprintf("a%d.t%d", a, k)
			tools = append(tools, &Tool{ID: tid, Name: tid})
			uses = append(uses, Use{Agent: id, Tool: tid})
		}
		if a%7 == 0 {
			tid := fmt.Sprintf("a%d.astool", a)
			tools = append(tools, &Tool{ID: tid, Name: tid, Agent: fmt.Sprintf("a%d", rng.Intn(n))})
			uses = append(uses, Use{Agent: id, Tool: tid})
		}
	}
	for k := 0; k < 3*n; k++ {
		links = append(links, Link{From: fmt.Sprintf("a%d", rng.Intn(n)), To: fmt.Sprintf("a%d", rng.Intn(n)), Kind: EdgeHandoff})
	}
	g := Build(agents, tools, nil, uses, links)
	want := network.Betweenness(g.g)
	members := make([]int64, len(g.names))
	for i := range members {
		members[i] = int64(i)
	}
	got := betweenness(g, members)
	if len(got) != len(want) {
		t.Errorf("%d nodes with a centrality, gonum %d", len(got), len(want))
	}
	nonzero := 0
	for id, w := range want {
		if math.Abs(got[id]-w) > 1e-9*math.Max(1, w) {
			t.Errorf("%s: %v, gonum %v", g.names[id], got[id], w)
		}
		if w > 1 {
			nonzero++
		}
	}
	if nonzero < n/2 {
		t.Fatalf("only %d nodes lie on many shortest paths: the graph does not test path counting", nonzero)
	}
}
