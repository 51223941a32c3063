package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acg-dev/acg/internal/gentree"
)

// TestHandoffChainFindingsBounded: a chain of agents each handing off to
// the next used to give a finding per (agent, reached tool) and per
// (source, sink) pair: 1,569 findings for 100 tools in 20 agents, four
// times as many for twice the chain. One root cause is now one finding, so
// the count grows with agents and tools (twice the chain, twice the
// findings), and each finding still lists every source that supports it.
func TestHandoffChainFindingsBounded(t *testing.T) {
	small := chainFindings(t, 50, 10)
	big := chainFindings(t, 100, 20)
	if small == 0 || float64(big) > 2.1*float64(small) {
		t.Errorf("%d findings for 50 tools, %d for 100: the count must grow linearly", small, big)
	}
}

func chainFindings(t *testing.T, tools, agents int) int {
	t.Helper()
	root := t.TempDir()
	if _, err := gentree.HandoffChain(root, tools, agents); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := scan([]string{"--format", "json", "--fail-on", "none", "--engine", "builtin", "--root", root, root}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc struct {
		SourceSets map[string]struct{ Tools []string } `json:"source_sets"`
		Agents     []struct{ ID string }
		Tools      []struct {
			ID, Name string
			Effects  map[string]bool
		}
		Findings []struct {
			ID, Rule, Agent, Sink string
			AgentID               string   `json:"agent_id"`
			Sources               []string `json:"sources"`
			Triage                string   `json:"triage"`
			TriageReason          string   `json:"triage_reason"`
			SourceSet             string   `json:"source_set"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Agents) != agents || len(doc.Tools) != tools {
		t.Fatalf("%d agents and %d tools, want %d and %d", len(doc.Agents), len(doc.Tools), agents, tools)
	}
	if n, most := len(doc.Findings), 3*(agents+tools); n > most {
		t.Errorf("%d findings, want at most %d", n, most)
	}
	untrusted := 0
	for _, tl := range doc.Tools {
		if tl.Effects["untrusted_input"] {
			untrusted++
		}
	}
	ids := map[string]bool{}
	byRule := map[string]int{}
	for _, f := range doc.Findings {
		byRule[f.Rule]++
		if ids[f.ID] {
			t.Errorf("id %s repeats", f.ID)
		}
		ids[f.ID] = true
		if f.AgentID == "" || f.Triage != "confirmed" && f.Triage != "needs_review" || f.TriageReason == "" {
			t.Errorf("%s on %s: agent_id %q, triage %q (%q)", f.Rule, f.Agent, f.AgentID, f.Triage, f.TriageReason)
		}
		// The last agent's send_mail is reached by every agent: every
		// untrusted source of the chain is one of its sources (its own or
		// its source set's).
		if set, ok := doc.SourceSets[f.SourceSet]; ok {
			f.Sources = append(f.Sources, set.Tools...)
		}
		if f.Rule == "missing-approval" && f.Agent == fmt.Sprintf("agent_%d", agents-1) && strings.HasPrefix(f.Sink, "send_mail_") && len(f.Sources) != untrusted {
			t.Errorf("missing-approval on %s lists %d sources, want all %d", f.Sink, len(f.Sources), untrusted)
		}
	}
	for _, rule := range []string{"rule-of-two", "missing-approval", "toxic-flow"} {
		if byRule[rule] == 0 {
			t.Errorf("no %s finding: %v", rule, byRule)
		}
	}
	t.Logf("%d tools in %d agents: %d findings: %v", tools, agents, len(doc.Findings), byRule)
	return len(doc.Findings)
}
