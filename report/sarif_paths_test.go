package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/acg-dev/acg/policy"
)

// TestSARIFThreadFlowPerPath: a finding that stands for several sources
// has one thread flow per supporting path, and its agent id, triage and
// reason among the properties.
func TestSARIFThreadFlowPerPath(t *testing.T) {
	step := func(line int, msg string) policy.Step {
		return policy.Step{File: "a.py", Line: line, Column: 1, Message: msg}
	}
	paths := [][]policy.Step{{step(1, "agent"), step(2, "fetch_a"), step(9, "send")}, {step(1, "agent"), step(3, "fetch_b"), step(9, "send")}}
	f := &policy.Finding{ID: "ACG-000000000004", Rule: "missing-approval", Severity: policy.Medium, Agent: "inbox", AgentID: "a.py#inbox",
		Location: policy.Location{File: "a.py", Line: 1, Column: 1}, Message: "m", Sources: []string{"fetch_a", "fetch_b"},
		Paths: paths, Steps: []policy.Step{step(1, "agent"), step(2, "fetch_a"), step(9, "send"), step(3, "fetch_b")},
		Triage: policy.TriageNeedsReview, TriageReason: "network_egress of send is assumed"}
	var b bytes.Buffer
	if err := SARIF(&b, &Document{Findings: []*policy.Finding{f}}, Options{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				CodeFlows []struct {
					ThreadFlows []struct {
						Locations []any `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0].Results[0]
	if len(r.CodeFlows) != 1 || len(r.CodeFlows[0].ThreadFlows) != 2 || len(r.CodeFlows[0].ThreadFlows[1].Locations) != 3 {
		t.Errorf("code flows: %+v", r.CodeFlows)
	}
	if r.Properties["agent_id"] != "a.py#inbox" || r.Properties["triage"] != "needs_review" || r.Properties["triage_reason"] != "network_egress of send is assumed" {
		t.Errorf("properties: %v", r.Properties)
	}
}
