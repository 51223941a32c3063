package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/acg-dev/acg/internal/gentree"
)

// TestGeneratedFactsUnchanged: the scaling work (reachability per strongly
// connected component, aggregated sources and sinks) must not lose or add
// a fact. Each generated shape is scanned and every finding reduced to its
// facts as sets: rule, agent, sink, triage, scope, sources, chains and the
// steps (file, line, column, message), order ignored. The golden was made
// by the code before the rewrite (commit "facts golden"); a change to it
// must be a change of semantics, made on purpose and said in the commit.
func TestGeneratedFactsUnchanged(t *testing.T) {
	for _, c := range []struct {
		name string
		gen  func(string) error
	}{
		{"chain-60-12", func(d string) error { _, err := gentree.HandoffChain(d, 60, 12); return err }},
		{"chain-200-40", func(d string) error { _, err := gentree.HandoffChain(d, 200, 40); return err }},
		{"single-40", func(d string) error { _, err := gentree.SingleAgent(d, 40); return err }},
		{"tree-40", func(d string) error { _, err := gentree.Write(d, 40); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := c.gen(dir); err != nil {
				t.Fatal(err)
			}
			got := factsOf(t, dir)
			g := filepath.Join("../../testdata/golden/scale", c.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(g), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(g, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(g)
			if err != nil {
				t.Fatalf("no golden (go test ./cmd/acg -run GeneratedFacts -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("facts differ from %s:\n%s", g, diffLines(string(want), got))
			}
		})
	}
}

// factsOf scans dir and writes one line per finding, sorted: its
// identifying fields, the sizes of its sets and a digest of each set, so
// that the golden stays small while any lost or added step shows.
//
// Shared steps (the document's shared_steps table, which findings name by
// {"ref": id}) are expanded first, so that the facts are those of every
// step a finding rests on, however the document spells them. A
// dangerous-chain finding stands for one target tool of one agent with
// every pattern that matches there: its facts are the union over the
// patterns, keyed by (agent, sink), so the golden of the findings per
// pattern holds the merged ones to the same sources, chains and steps.
func factsOf(t *testing.T, dir string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := scan([]string{"--format", "json", "--fail-on", "none", "--engine", "builtin", "--root", dir, dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	type step struct {
		Ref          string
		File         string
		Line, Column int
		Message      string
	}
	var doc struct {
		SharedSteps map[string]step `json:"shared_steps"`
		SourceSets  map[string]struct {
			Tools []string
			Steps []step
		} `json:"source_sets"`
		Findings []struct {
			ID, Rule, Agent, Sink, Source string
			AgentID                       string `json:"agent_id"`
			Triage                        string
			InScope                       []string `json:"in_scope"`
			Chain                         []string
			Sources                       []string
			Chains                        [][]string
			Steps                         []step
			SourceSet                     string `json:"source_set"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	type merged struct{ scope, sources, chains, steps []string }
	chains := map[string]*merged{}
	var lines []string
	for _, f := range doc.Findings {
		var steps, fchains []string
		// A finding that names a source set rests on the set's sources and
		// steps as well as its own.
		if f.SourceSet != "" {
			set, ok := doc.SourceSets[f.SourceSet]
			if !ok {
				t.Fatalf("finding %s names source set %q, which the document does not hold", f.ID, f.SourceSet)
			}
			f.Sources = append(f.Sources, set.Tools...)
			f.Steps = append(f.Steps, set.Steps...)
		}
		for _, s := range f.Steps {
			if s.Ref != "" {
				r, ok := doc.SharedSteps[s.Ref]
				if !ok {
					t.Fatalf("finding %s names shared step %q, which the document does not hold", f.ID, s.Ref)
				}
				s = r
			}
			steps = append(steps, splitContext(fmt.Sprintf("%s:%d:%d %s", s.File, s.Line, s.Column, s.Message))...)
		}
		for _, c := range f.Chains {
			fchains = append(fchains, strings.Join(c, ">"))
		}
		if f.Rule == "dangerous-chain" {
			k := f.AgentID + " sink=" + f.Sink
			m := chains[k]
			if m == nil {
				m = &merged{}
				chains[k] = m
			}
			m.scope = append(m.scope, f.InScope...)
			m.sources = append(m.sources, f.Sources...)
			m.chains = append(m.chains, fchains...)
			m.steps = append(m.steps, steps...)
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s agent=%s sink=%s triage=%s scope=%s sources=%s chains=%s chain=%s steps=%s",
			f.ID, f.Rule, f.AgentID, f.Sink, f.Triage, digest(f.InScope), digest(f.Sources), digest(fchains), digest(f.Chain), digest(steps)))
	}
	for k, m := range chains {
		lines = append(lines, fmt.Sprintf("dangerous-chain agent=%s scope=%s sources=%s chains=%s steps=%s",
			k, digest(m.scope), digest(m.sources), digest(m.chains), digest(m.steps)))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

// digest is a set's size and a hash of its sorted members.
func digest(xs []string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	s = slices.Compact(s)
	h := sha256.Sum256([]byte(strings.Join(s, "\n")))
	return fmt.Sprintf("%d/%s", len(s), hex.EncodeToString(h[:4]))
}

// The step that carries a source's result into the agent whose context
// chooses a sink's arguments was one step per (source, agent, sink) until
// session 4; it is now two at the same place: the source's ("the result of
// X enters the context of agent A", shared by every sink A reaches) and
// the sink's ("agent A chooses the arguments of S", the finding's own).
// The facts are compared in the second form: splitContext turns a step in
// the first into the two it now is and leaves every other step alone, so
// the goldens, made by the code before the split, hold the code after it to
// the same facts.
var (
	contextStep = regexp.MustCompile(`the result of ([^\s",]+) enters the context of agent ([^\s",]+), which chooses the arguments of ([^\s",]+)`)
	stateStep   = regexp.MustCompile(`node ([^\s",]+) returns it into the state of graph ([^\s",]+), which node ([^\s",]+) reads`)
)

func splitContext(s string) []string {
	if m := contextStep.FindStringSubmatchIndex(s); m != nil {
		src, agent, sink := s[m[2]:m[3]], s[m[4]:m[5]], s[m[6]:m[7]]
		return []string{
			s[:m[0]] + "the result of " + src + " enters the context of agent " + agent + s[m[1]:],
			s[:m[0]] + "agent " + agent + " chooses the arguments of " + sink + s[m[1]:],
		}
	}
	if m := stateStep.FindStringSubmatchIndex(s); m != nil {
		src, graph, sink := s[m[2]:m[3]], s[m[4]:m[5]], s[m[6]:m[7]]
		return []string{
			s[:m[0]] + "node " + src + " returns it into the state of graph " + graph + s[m[1]:],
			s[:m[0]] + "node " + sink + " reads it from the state of graph " + graph + s[m[1]:],
		}
	}
	return []string{s}
}
