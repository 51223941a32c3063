package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateFacts = flag.Bool("update", false, "rewrite the facts goldens")

// TestGraphFactsUnchanged: every check on the generated graphs with
// handoff cycles, sub-agents and agents-as-tools (generated) and on one
// strongly connected component that reaches everything (dense) gives the
// same findings with the same sets of scope, sources, chains, legs, steps
// and related locations as the per-agent walk the golden was made with.
func TestGraphFactsUnchanged(t *testing.T) {
	for name, fs := range map[string][]*Finding{
		"generated-1000": mustRun(&Input{Graph: generated(1000)}, nil),
		"dense-400":      mustRun(&Input{Graph: dense(400)}, nil),
	} {
		// A dangerous-chain finding stands for one target tool of one
		// agent and every pattern matching there: its facts are the union
		// over the patterns, keyed by (agent, sink).
		type merged struct{ scope, sources, chains, steps, related, sinks []string }
		byTarget := map[string]*merged{}
		var lines []string
		for _, f := range fs {
			var steps, chains, related, paths []string
			for _, s := range f.AllSteps() {
				steps = append(steps, fmt.Sprintf("%s:%d:%d %s", s.File, s.Line, s.Column, s.Message))
			}
			for _, s := range f.AllRelated() {
				related = append(related, fmt.Sprintf("%s:%d:%d %s", s.File, s.Line, s.Column, s.Message))
			}
			for _, p := range f.Paths {
				var ps []string
				for _, s := range p {
					ps = append(ps, fmt.Sprintf("%s:%d:%d %s", s.File, s.Line, s.Column, s.Message))
				}
				paths = append(paths, strings.Join(ps, "|"))
			}
			for _, c := range f.Chains {
				chains = append(chains, strings.Join(c, ">"))
			}
			if f.Rule == "dangerous-chain" {
				k := f.AgentID + " sink=" + f.Sink
				m := byTarget[k]
				if m == nil {
					m = &merged{}
					byTarget[k] = m
				}
				m.scope = append(m.scope, f.InScope...)
				m.sources = append(m.sources, f.AllSources()...)
				m.chains = append(m.chains, chains...)
				m.steps = append(m.steps, steps...)
				m.related = append(m.related, related...)
				m.sinks = append(m.sinks, f.SinkIDs...)
				continue
			}
			var legs []string
			if f.Legs != nil {
				legs = append(append(append(legs, f.Legs.Untrusted...), f.Legs.Private...), f.Legs.Action...)
			}
			lines = append(lines, fmt.Sprintf("%s %s agent=%s sink=%s sev=%s triage=%s type=%s scope=%s sources=%s chains=%s chain=%s legs=%s steps=%s related=%s paths=%d sinks=%s",
				f.ID, f.Rule, f.AgentID, f.Sink, f.Severity, f.Triage, f.ChainType, digestSet(f.InScope), digestSet(f.AllSources()), digestSet(chains),
				digestSet(f.Chain), digestSet(legs), digestSet(steps), digestSet(related), len(paths), digestSet(f.SinkIDs)))
		}
		for k, m := range byTarget {
			lines = append(lines, fmt.Sprintf("dangerous-chain agent=%s scope=%s sources=%s chains=%s steps=%s related=%s sinks=%s",
				k, digestSet(m.scope), digestSet(m.sources), digestSet(m.chains), digestSet(m.steps), digestSet(m.related), digestSet(m.sinks)))
		}
		slices.Sort(lines)
		got := strings.Join(lines, "\n") + "\n"
		g := filepath.Join("testdata", "facts", name+".txt")
		if *updateFacts {
			if err := os.MkdirAll(filepath.Dir(g), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(g, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(g)
		if err != nil {
			t.Fatalf("no golden (go test ./policy -run GraphFacts -update): %v", err)
		}
		if got != string(want) {
			wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
			for i := 0; i < len(wl) && i < len(gl); i++ {
				if wl[i] != gl[i] {
					t.Fatalf("%s: %d findings, want %d; first difference:\nwant %s\ngot  %s", name, len(gl)-1, len(wl)-1, wl[i], gl[i])
				}
			}
			t.Fatalf("%s: %d findings, want %d", name, len(gl)-1, len(wl)-1)
		}
	}
}

// digestSet is a set's size and a hash of its sorted members.
func digestSet(xs []string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	s = slices.Compact(s)
	h := sha256.Sum256([]byte(strings.Join(s, "\n")))
	return fmt.Sprintf("%d/%s", len(s), hex.EncodeToString(h[:4]))
}
