package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/report"
)

// TestContractFields checks the JSON output field for field against the
// output contract of DESIGN.md.
func TestContractFields(t *testing.T) {
	s, _, err := incremental.Load(context.Background(), "../testdata/inbox", nil)
	if err != nil {
		t.Fatal(err)
	}
	res := s.Analyze()
	var buf bytes.Buffer
	if err := report.JSON(&buf, report.NewDocument(res.Graph, res.Findings)); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"":        "agents findings notices shared_steps source_sets tools version",
		"agent":   "capabilities file framework id line name tools",
		"tool":    "decided_by effects file framework id line name",
		"finding": "agent agent_id approval_on_path chain chain_type decided_by id in_scope location remediation risk_score rule severity sink source steps taxonomy triage triage_reason vulnerability_type",
		"loc":     "column file line",
		"step":    "column file line message",
		"ref":     "ref",
		"tax":     "atlas owasp_asi owasp_llm",
		"effects": "executes_code irreversible network_egress reads_private untrusted_input writes_state",
	}
	check := func(what string, m any) {
		t.Helper()
		obj, ok := m.(map[string]any)
		if !ok {
			t.Fatalf("%s is not an object", what)
		}
		var keys []string
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if got := strings.Join(keys, " "); got != want[what] {
			t.Errorf("%s keys = %q\n want %q", what, got, want[what])
		}
	}
	check("", doc)
	if doc["version"] != "3" {
		t.Errorf("version = %v", doc["version"])
	}
	agents := doc["agents"].([]any)
	tools := doc["tools"].([]any)
	findings := doc["findings"].([]any)
	if len(agents) != 1 || len(tools) != 3 || len(findings) == 0 {
		t.Fatalf("agents %d tools %d findings %d", len(agents), len(tools), len(findings))
	}
	check("agent", agents[0])
	check("tool", tools[0])
	check("effects", tools[0].(map[string]any)["effects"])
	check("effects", tools[0].(map[string]any)["decided_by"])
	// The inbox's first finding by position and rule: its dangerous-chain
	// and rule-of-two are both critical on the agent's line.
	f := findings[0].(map[string]any)
	for _, x := range findings {
		if x.(map[string]any)["rule"] == "rule-of-two" {
			f = x.(map[string]any)
			break
		}
	}
	check("finding", f)
	check("loc", f["location"])
	// A step is inline or, when more findings rest on it, a ref into
	// shared_steps, which holds it whole.
	shared := doc["shared_steps"].(map[string]any)
	if len(shared) == 0 {
		t.Errorf("the inbox's findings share no step")
	}
	// Shared means named by more than one finding; a step of one finding
	// alone stays inline.
	refs := map[string]int{}
	inline := map[string]int{}
	for _, x := range findings {
		for _, st := range x.(map[string]any)["steps"].([]any) {
			m := st.(map[string]any)
			if id, ok := m["ref"].(string); ok {
				check("ref", m)
				if shared[id] == nil {
					t.Errorf("ref %q not in shared_steps", id)
				}
				refs[id]++
				continue
			}
			check("step", m)
			b, _ := json.Marshal(m)
			inline[string(b)]++
		}
	}
	for id := range shared {
		if refs[id] < 2 {
			t.Errorf("shared step %s is named by %d findings", id, refs[id])
		}
	}
	for st, n := range inline {
		if n > 1 {
			t.Errorf("step %s is inline in %d findings, not shared", st, n)
		}
	}
	for _, st := range shared {
		check("step", st)
	}
	check("tax", f["taxonomy"])
	if f["rule"] != "rule-of-two" || f["agent"] != "inbox_assistant" {
		t.Errorf("first finding %v on %v", f["rule"], f["agent"])
	}
	loc := f["location"].(map[string]any)
	if loc["file"] != "agent.py" || loc["line"].(float64) != 9 || loc["column"].(float64) < 1 {
		t.Errorf("location %v: paths relative to the root, 1-based", loc)
	}
}
