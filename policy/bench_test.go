package policy

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// generated builds a capability graph of about n nodes shaped like a large
// workspace: many applications of six agents each (a supervisor handing
// off to four workers, two of which hand back and forth, one sub-agent and
// one agent-as-tool), sixteen catalog tools per agent (real labels and
// roles), one use in ten behind an approval.
func generated(n int) *capgraph.Graph {
	cat := generatedTools()
	rng := rand.New(rand.NewSource(1))
	b := newGB()
	clusters := (n + 60) / 103
	for c := 0; c < clusters; c++ {
		gate := &extract.Approval{Kind: "interrupt", All: true, Loc: extract.Loc{File: fmt.Sprintf("app%03d/graph.py", c), Start: extract.Point{Line: 1, Col: 1}}}
		agent := func(k int) string { return fmt.Sprintf("c%03d.a%d", c, k) }
		for k := 0; k < 6; k++ {
			var ts []*capgraph.Tool
			for t := 0; t < 16; t++ {
				ct := cat[rng.Intn(len(cat))]
				id := fmt.Sprintf("%s.t%02d", agent(k), t)
				ts = append(ts, &capgraph.Tool{ID: id, Name: ct.Class, Framework: ct.Framework,
					Effects: ct.EffectsOf("catalog"), Src: &extract.Tool{ID: id, Name: ct.Class}})
			}
			if k == 0 {
				id := fmt.Sprintf("c%03d.astool", c)
				ts = append(ts, &capgraph.Tool{ID: id, Name: id, Agent: agent(5), Kind: extract.ToolAgent,
					Effects: effects.Unknown("agent tool", extract.Loc{}), Src: &extract.Tool{ID: id, Name: id}})
			}
			b.agent(agent(k), ts...)
		}
		for i := len(b.uses) - 97; i < len(b.uses); i += 10 {
			b.uses[i].Gates = []*extract.Approval{gate}
		}
		for k := 1; k <= 4; k++ {
			b.link(agent(0), agent(k), capgraph.EdgeHandoff)
		}
		b.link(agent(1), agent(2), capgraph.EdgeHandoff).link(agent(2), agent(1), capgraph.EdgeHandoff)
		b.link(agent(3), agent(4), capgraph.EdgeSubAgent)
	}
	return b.build()
}

// dense builds the adversarial shape: every agent hands off to two random
// others, so one strongly connected component reaches everything.
func dense(n int) *capgraph.Graph {
	cat := generatedTools()
	rng := rand.New(rand.NewSource(1))
	b := newGB()
	agents := n / 21
	for a := 0; a < agents; a++ {
		var ts []*capgraph.Tool
		for k := 0; k < 20; k++ {
			ct := cat[rng.Intn(len(cat))]
			id := fmt.Sprintf("t%05d", a*20+k)
			ts = append(ts, &capgraph.Tool{ID: id, Name: ct.Class, Effects: ct.EffectsOf("catalog"), Src: &extract.Tool{ID: id, Name: ct.Class}})
		}
		b.agent(fmt.Sprintf("a%04d", a), ts...)
	}
	for a := 0; a < agents; a++ {
		for k := 0; k < 2; k++ {
			b.link(fmt.Sprintf("a%04d", a), fmt.Sprintf("a%04d", rng.Intn(agents)), capgraph.EdgeHandoff)
		}
	}
	return b.build()
}

func TestGeneratedGraphSize(t *testing.T) {
	g := generated(5000)
	if n := len(g.Nodes()); n < 4900 || n > 5100 {
		t.Fatalf("generated graph has %d nodes", n)
	}
	if len(g.AgentCycles()) == 0 {
		t.Fatal("the generated graph should have agent cycles")
	}
}

func benchChecks(b *testing.B, build func() *capgraph.Graph) {
	var findings, chainsFound int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := build()
		b.StartTimer()
		fs, failed := Run(&Input{Graph: g}, nil)
		if len(failed) > 0 {
			b.Fatalf("check %s panicked: %s", failed[0].Check, failed[0].Panic)
		}
		findings, chainsFound = len(fs), 0
		for _, f := range fs {
			if f.Rule == "dangerous-chain" {
				chainsFound++
			}
		}
	}
	b.ReportMetric(float64(findings), "findings")
	b.ReportMetric(float64(chainsFound), "chains")
}

// BenchmarkAllChecks5000 runs every registered check on a generated graph
// of 5,000 nodes, centrality and cycle detection included.
func BenchmarkAllChecks5000(b *testing.B) {
	benchChecks(b, func() *capgraph.Graph { return generated(5000) })
}

// BenchmarkAllChecksDense1000: the worst shape, smaller.
func BenchmarkAllChecksDense1000(b *testing.B) {
	benchChecks(b, func() *capgraph.Graph { return dense(1000) })
}

// BenchmarkChains5000: dangerous-chain alone on the same graph.
func BenchmarkChains5000(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := generated(5000)
		b.StartTimer()
		dangerousChain(&Input{Graph: g})
	}
}

// generatedTools are the catalog tools the generated graphs pick from, in
// a fixed order (testdata/generated-tools.txt: class and packages, as the
// catalog listed them when the facts goldens were made), so that a tool
// added to the catalog does not change which tools the graphs hold. A
// listed tool's labels are the catalog's current ones.
func generatedTools() []*effects.CatalogTool {
	src, err := os.ReadFile(filepath.Join("testdata", "generated-tools.txt"))
	if err != nil {
		panic(err)
	}
	byKey := map[string]*effects.CatalogTool{}
	for _, ct := range effects.DefaultCatalog().Tools {
		byKey[ct.Class+" "+strings.Join(ct.Packages, ",")] = ct
	}
	var out []*effects.CatalogTool
	for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		ct := byKey[line]
		if ct == nil {
			panic("generated-tools.txt: " + line + " is no longer in the catalog")
		}
		out = append(out, ct)
	}
	return out
}
