package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
)

func textDoc() *Document {
	f := &policy.Finding{ID: "ACG-000000000001", Rule: "rule-of-two", Severity: policy.Critical, Agent: "inbox", AgentID: "a.py#inbox",
		Location: policy.Location{File: "a.py", Line: 3, Column: 1}, Message: "Agent inbox breaks the Rule of Two",
		Legs:        &policy.Legs{Untrusted: []string{"read_email"}, Private: []string{"read_notes"}, Action: []string{"send_http"}},
		Remediation: "Gate send_http."}
	s := &policy.Finding{ID: "ACG-000000000002", Rule: "missing-approval", Severity: policy.High, Agent: "inbox", AgentID: "a.py#inbox",
		Suppression: &policy.Suppression{Kind: "inSource", Justification: "ok"}}
	return &Document{
		Agents: []Agent{
			{ID: "a.py#inbox", Name: "inbox", Framework: extract.FrameworkLangGraph, Tools: []string{"t1", "t2", "t3"}, Capabilities: []string{"UNTRUSTED_SOURCE", "READ_PRIVATE", "EGRESS"}},
			{ID: "b.py#a_much_longer_agent_name", Name: "a_much_longer_agent_name", Framework: extract.FrameworkOpenAIAgents},
		},
		Tools:      []Tool{{ID: "t1"}, {ID: "t2"}, {ID: "t3"}},
		Findings:   []*policy.Finding{f},
		Suppressed: []*policy.Finding{s},
	}
}

func TestTextTable(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, textDoc(), Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "\033[") {
		t.Error("colour without Options.Color")
	}
	want := `AGENT                     FRAMEWORK      TOOLS  CAPABILITIES              FINDINGS
inbox                     langgraph      3      untrusted private egress  1 critical (1 suppressed)
a_much_longer_agent_name  openai-agents  0      -                         -

acg: 1 finding (1 critical) in 2 agents, 3 tools; 1 suppressed
`
	if !strings.HasSuffix(out, want) {
		t.Errorf("table and summary:\n%s\nwant suffix:\n%s", out, want)
	}
	if !strings.HasPrefix(out, "a.py:3:1: CRITICAL [rule-of-two] Agent inbox breaks the Rule of Two\n") {
		t.Errorf("finding block:\n%s", out)
	}
}

func TestTextColor(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, textDoc(), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{ansiBold + ansiRed + "CRITICAL" + ansiReset, ansiBold + "AGENT" + ansiReset, ansiGreen + "Gate send_http." + ansiReset} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%q", want, out)
		}
	}
	if UseColor(&b) {
		t.Error("a buffer is not a terminal")
	}
}

func TestProgress(t *testing.T) {
	var b bytes.Buffer
	clock := time.Unix(0, 0)
	p := &Progress{w: &b, start: clock, now: func() time.Time { return clock }, phase: "reading files"}
	p.Files(3, 12)
	clock = clock.Add(900 * time.Millisecond)
	p.draw()
	if b.Len() != 0 {
		t.Fatalf("drawn before a second: %q", b.String())
	}
	clock = clock.Add(300 * time.Millisecond)
	p.Files(2, 12) // reported late by another worker: never goes back
	p.draw()
	if got, want := b.String(), "\r\033[Kacg: reading files [=======>                      ] 3/12 1.2s"; got != want {
		t.Errorf("bar:\n got %q\nwant %q", got, want)
	}
	b.Reset()
	p.Phase("analysing")
	p.draw()
	if got := b.String(); got != "\r\033[Kacg: analysing (12 files) 1.2s" {
		t.Errorf("phase: %q", got)
	}
	b.Reset()
	p.Stop()
	if b.String() != "\r\033[K" {
		t.Errorf("stop does not clear the line: %q", b.String())
	}
	// Not a terminal: NewProgress draws nothing, and Stop is safe.
	var silent bytes.Buffer
	q := NewProgress(&silent)
	q.Files(1, 1)
	q.Stop()
	if silent.Len() != 0 {
		t.Errorf("wrote to a non-terminal: %q", silent.String())
	}
}

func TestCedarString(t *testing.T) {
	for in, want := range map[string]string{
		`send_http`:   `"send_http"`,
		`a"b\c`:       `"a\"b\\c"`,
		"line\nbreak": `"line\u{a}break"`,
	} {
		if got := cedarString(in); got != want {
			t.Errorf("%q: got %s want %s", in, got, want)
		}
	}
}

func TestGUIDIsStableAndValid(t *testing.T) {
	a, b := guid("x"), guid("x")
	if a != b || guid("y") == a {
		t.Fatal("guid must be a function of its name")
	}
	if len(a) != 36 || a[14] != '5' || !strings.ContainsAny(a[19:20], "89ab") {
		t.Errorf("not a version-5 UUID layout: %s", a)
	}
}

// TestTextCapsLongLists: a finding that stands for many sources names the
// first few and counts the rest; its steps too. JSON and SARIF keep all.
func TestTextCapsLongLists(t *testing.T) {
	var srcs []string
	var steps []policy.Step
	for i := 0; i < 30; i++ {
		srcs = append(srcs, fmt.Sprintf("fetch_%d", i))
		steps = append(steps, policy.Step{File: "a.py", Line: i + 1, Column: 1, Message: fmt.Sprintf("untrusted input: fetch_%d", i)})
	}
	f := &policy.Finding{ID: "ACG-000000000003", Rule: "missing-approval", Severity: policy.High, Agent: "inbox", AgentID: "a.py#inbox",
		Location: policy.Location{File: "a.py", Line: 3, Column: 1}, Message: "m", Chain: []string{"fetch_0", "send"},
		Sources: srcs, Steps: steps, Triage: policy.TriageNeedsReview, TriageReason: "a leg rests on the fail-closed default"}
	var b bytes.Buffer
	if err := Text(&b, &Document{Findings: []*policy.Finding{f}}, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"  sources: fetch_0, fetch_1, fetch_2, fetch_3, fetch_4, fetch_5, fetch_6, fetch_7 and 22 more\n",
		"… and 18 more steps",
		"(needs_review: a leg rests on the fail-closed default)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "fetch_29") {
		t.Errorf("the capped lists still show everything:\n%s", out)
	}
}
