package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/policy"
)

// evil is a name that, printed raw, erases the line above and prints a
// green "all clear" in its place, then reverses what follows.
const evil = "\x1b[2K\x1b[1A\x1b[32mall clear\u009b\u202e\n\tx\xff\x7f"

func hostileDoc() *Document {
	f := &policy.Finding{ID: "ACG-000000000001", Rule: "rule-of-two", Severity: policy.Critical, Agent: evil, AgentID: "a.py#x",
		InScope:  []string{evil, evil + "2"},
		Location: policy.Location{File: evil + ".py", Line: 3, Column: 1}, Message: "Agent " + evil + " breaks the Rule of Two",
		Legs:      &policy.Legs{Untrusted: []string{evil}, Private: []string{"read_notes"}, Action: []string{evil}},
		Steps:     []policy.Step{{File: evil + ".py", Line: 1, Column: 1, Message: "tool " + evil}},
		DecidedBy: "rules", Triage: "confirmed", Remediation: "Gate " + evil + "."}
	chain := &policy.Finding{ID: "ACG-000000000002", Rule: "dangerous-chain", Severity: policy.High, Agent: evil, AgentID: "a.py#x",
		Location: policy.Location{File: "a.py", Line: 3, Column: 1}, Chain: []string{evil, "notify"}}
	return &Document{
		Agents:   []Agent{{ID: "a.py#x", Name: evil, Framework: extract.FrameworkLangGraph, Tools: []string{"t1"}, Capabilities: []string{"EGRESS"}}},
		Tools:    []Tool{{ID: "t1"}},
		Findings: []*policy.Finding{f, chain},
	}
}

// With colour on, the only escape sequences in the text report are the
// styles acg adds; every line is one of acg's.
func TestTextEscapesHostileNames(t *testing.T) {
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := Text(&b, hostileDoc(), Options{Color: color}); err != nil {
			t.Fatal(err)
		}
		out := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllStringFunc(b.String(), func(s string) string {
			for _, ours := range []string{ansiReset, ansiBold, ansiDim, ansiRed, ansiYellow, ansiCyan, ansiGreen} {
				if s == ours {
					return ""
				}
			}
			return s
		})
		if !utf8.ValidString(out) {
			t.Fatalf("colour %v: not UTF-8: %q", color, out)
		}
		for _, r := range out {
			if r != '\n' && termsafe.Unsafe(r) {
				t.Fatalf("colour %v: %U reaches the terminal:\n%q", color, r, out)
			}
		}
		if n := strings.Count(out, termsafe.String(evil)); n < 10 {
			t.Errorf("colour %v: the escaped name shows %d times:\n%s", color, n, out)
		}
		if regexp.MustCompile(`(?m)^\tx`).MatchString(out) {
			t.Errorf("colour %v: a name split a line:\n%s", color, out)
		}
	}
}

func TestProgressEscapesPhase(t *testing.T) {
	// The line is redrawn in place: a phase must not move the cursor.
	var b bytes.Buffer
	clock := time.Unix(0, 0)
	p := &Progress{w: &b, start: clock, now: func() time.Time { return clock.Add(2 * time.Second) }}
	p.Phase("reading " + evil)
	p.draw()
	if got, want := b.String(), "\r\033[Kacg: reading "+termsafe.String(evil)+" (0 files) 2.0s"; got != want {
		t.Errorf("progress line:\n got %q\nwant %q", got, want)
	}
}

func TestCedarEscapesHostileNames(t *testing.T) {
	var b bytes.Buffer
	if err := Cedar(&b, hostileDoc()); err != nil {
		t.Fatal(err)
	}
	for _, r := range b.String() {
		if r != '\n' && termsafe.Unsafe(r) {
			t.Fatalf("%U in the Cedar policies:\n%q", r, b.String())
		}
	}
}
