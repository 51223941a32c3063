package traces

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acg-dev/acg/report"
)

const fixtures = "../testdata/traces"

func analyzeFiles(t *testing.T, paths ...string) *Result {
	t.Helper()
	var full []string
	for _, p := range paths {
		full = append(full, filepath.Join(fixtures, p))
	}
	set, err := Read(full...)
	if err != nil {
		t.Fatal(err)
	}
	return Analyze(set, Options{Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
}

func chainsOf(r *Result) (observed, blocked []string) {
	for _, c := range r.Chains {
		s := strings.Join(c.tools(), ">")
		if c.Blocked != nil {
			blocked = append(blocked, s)
		} else {
			observed = append(observed, s)
		}
	}
	return
}

// TestFormats: each format's fixture of a run that walked the path gives
// one observed chain; the same run stopped by an approval (an interrupt
// event, a custom approval span, a Claude Code permission request) gives
// the blocked chain and no finding; a run with no untrusted read gives
// nothing. Negative cases first.
func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		file             string
		format           string
		observed, blockd []string
	}{
		{"langfuse/benign.json", FormatLangfuse, nil, nil},
		{"otlp-json/fixed.jsonl", FormatOTLPJSON, nil, []string{"read_email>read_notes>send_http"}},
		{"otel-sdk/fixed.json", FormatOTelSDK, nil, []string{"read_email>read_notes>send_http"}},
		{"otlp-protobuf/fixed.otlp.pb", FormatOTLPProto, nil, []string{"read_email>read_notes>send_http"}},
		{"openai-agents/approved.jsonl", FormatOpenAI, nil, []string{"read_email>read_notes>send_http"}},
		{"openai-agents/fixed.json", FormatOpenAI, nil, []string{"read_email>read_notes>send_http"}},
		{"claude-code/approved.jsonl", FormatClaudeCode, nil, []string{"WebFetch>Read>Bash"}},
		{"otlp-json/leak.jsonl", FormatOTLPJSON, []string{"read_email>read_notes>send_http"}, nil},
		{"otel-sdk/leak.json", FormatOTelSDK, []string{"read_email>read_notes>send_http"}, nil},
		{"otlp-protobuf/leak.otlp.pb", FormatOTLPProto, []string{"read_email>read_notes>send_http"}, nil},
		{"openai-agents/leak.json", FormatOpenAI, []string{"read_email>read_notes>send_http"}, nil},
		{"langfuse/leak.json", FormatLangfuse, []string{"read_email>read_notes>send_http"}, nil},
		{"claude-code/leak.jsonl", FormatClaudeCode, []string{"WebFetch>Read>Bash"}, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := analyzeFiles(t, tc.file)
			if len(r.Problems) != 0 {
				t.Errorf("problems: %v", r.Problems)
			}
			if len(r.Sessions) != 1 || r.Sessions[0].Format != tc.format {
				t.Fatalf("sessions %+v, want one of format %s", r.Sessions, tc.format)
			}
			obs, blk := chainsOf(r)
			if !slices.Equal(obs, tc.observed) || !slices.Equal(blk, tc.blockd) {
				t.Errorf("observed %v blocked %v, want %v and %v", obs, blk, tc.observed, tc.blockd)
			}
			if len(r.Findings) != len(tc.observed) || r.Summary.Observed != len(tc.observed) {
				t.Errorf("%d findings, summary %+v", len(r.Findings), r.Summary)
			}
			for _, f := range r.Findings {
				if f.Rule != RuleObserved || len(f.Steps) != 3 || !strings.HasPrefix(f.Steps[0].Message, "span ") {
					t.Errorf("finding %+v: want observed-chain with one step per span", f)
				}
			}
		})
	}
}

// TestSpanIDsAndSessions: the OpenTelemetry readers keep the span ids,
// the conversation id and the agent of the invoke_agent parent; the same
// run as SDK JSON, OTLP JSON and OTLP protobuf is the same finding.
func TestSpanIDsAndSessions(t *testing.T) {
	var ids []string
	for _, f := range []string{"otel-sdk/leak.json", "otlp-json/leak.jsonl", "otlp-protobuf/leak.otlp.pb"} {
		r := analyzeFiles(t, f)
		se := r.Sessions[0]
		if se.ID != "conv-leak" || se.Agent != "inbox_assistant" || len(se.Calls) != 3 {
			t.Fatalf("%s: session %s agent %s calls %d", f, se.ID, se.Agent, len(se.Calls))
		}
		for _, c := range se.Calls {
			if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(c.SpanID) {
				t.Errorf("%s: span id %q", f, c.SpanID)
			}
		}
		ids = append(ids, r.Findings[0].ID)
	}
	if ids[0] != ids[1] || ids[1] != ids[2] {
		t.Errorf("the same run has finding ids %v", ids)
	}
}

// TestBrokenInput: a malformed record in the middle, a file cut off, a
// protobuf cut off and a file of no known format each give a problem
// with its place, and every record before (and, for JSON lines, after)
// the damage is read.
func TestBrokenInput(t *testing.T) {
	for _, tc := range []struct {
		file    string
		problem string
		line    int
		calls   int
	}{
		{"broken/claude-middle-broken.jsonl", "invalid character", 2, 3},
		{"broken/otlp-truncated.jsonl", "truncated", 2, 3},
		{"broken/sdk-truncated.json", "truncated", 103, 3},
		{"broken/truncated.otlp.pb", "truncated", 0, 3},
		{"broken/not-a-trace.json", "not a record of a known trace format", 1, 0},
		{"broken/openai-truncated.jsonl", "truncated", 5, 2},
		{"broken/langfuse-observation-without-id.json", "1 observation(s) without id skipped", 1, 2},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := analyzeFiles(t, tc.file)
			if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, tc.problem) || r.Problems[0].Line != tc.line {
				t.Fatalf("problems %+v, want one %q at line %d", r.Problems, tc.problem, tc.line)
			}
			if r.Summary.Calls != tc.calls {
				t.Errorf("%d calls read, want %d", r.Summary.Calls, tc.calls)
			}
		})
	}
}

// TestProtobufCutEverywhere: a protobuf trace cut at any byte never
// panics, never invents a call, and keeps every span that is whole.
func TestProtobufCutEverywhere(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "otlp-protobuf/leak.otlp.pb"))
	if err != nil {
		t.Fatal(err)
	}
	prev := 0
	for n := 1; n < len(data); n++ {
		ss, probs := Parse("cut.pb", data[:n])
		calls := 0
		for _, s := range ss {
			calls += len(s.Calls)
		}
		if calls > 3 || len(probs) == 0 {
			t.Fatalf("cut at %d: %d calls, problems %v", n, calls, probs)
		}
		if calls < prev-1 { // a cut inside the agent span may move calls between sessions, never lose two
			t.Errorf("cut at %d: %d calls, %d at the byte before", n, calls, prev)
		}
		prev = calls
	}
	if ss, probs := Parse("whole.pb", data); len(probs) != 0 || len(ss) != 1 || len(ss[0].Calls) != 3 {
		t.Errorf("whole file: %d sessions, problems %v", len(ss), probs)
	}
}

// secretRe matches the secrets the fixtures hold (an sk- key, a
// password, an AWS secret key): none may reach any output.
var secretRe = regexp.MustCompile(`sk-live-4f9c2a7d1e8b6053a9c4e2f1|hunter2hunter2|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|4f9c2a7d1e8b`)

// TestSecretsNeverInOutput: every fixture holds secrets in tool
// arguments and results; no output format carries one, nor a part of
// one.
func TestSecretsNeverInOutput(t *testing.T) {
	set, err := Read(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(fixtures, "langfuse/leak.json"))
	if !secretRe.Match(raw) {
		t.Fatal("the fixture holds no secret: the test would prove nothing")
	}
	r := Analyze(set, Options{})
	if r.Summary.Observed == 0 {
		t.Fatal("no chain: the outputs would hold no steps")
	}
	var b bytes.Buffer
	for name, write := range map[string]func() error{
		"json":  func() error { return JSON(&b, r) },
		"text":  func() error { return Text(&b, r) },
		"jsonl": func() error { return JSONL(&b, r) },
		"sarif": func() error { return SARIF(&b, r, report.Options{ToolVersion: "test"}) },
	} {
		b.Reset()
		if err := write(); err != nil {
			t.Fatal(err)
		}
		if m := secretRe.Find(b.Bytes()); m != nil {
			t.Errorf("%s output holds the secret %q", name, m)
		}
		if name == "json" && !strings.Contains(b.String(), "args_preview") {
			t.Errorf("json output has no previews at all:\n%s", b.String())
		}
	}
}

// TestPreview: a preview is short, on one line, and masks a secret that
// the bound would cut.
func TestPreview(t *testing.T) {
	long := strings.Repeat("x", 20) + " token=" + "abcdefghijklmnopqrstuvwxyz0123456789"
	p := Preview(long)
	if strings.Contains(p, "abcdefghij") || len([]rune(p)) > PreviewLen+1 {
		t.Errorf("preview %q", p)
	}
	if got := Preview("a\nb\tc"); got != "a b c" {
		t.Errorf("preview %q", got)
	}
}

// TestApprovalWords: approvals are recognised by whole words of a name,
// never by substrings.
func TestApprovalWords(t *testing.T) {
	for name, want := range map[string]string{
		"interrupt": "interrupt", "GraphInterrupt": "interrupt", "tool_approval_requested": "approval",
		"PermissionRequest": "permission_request", "user.confirmation": "confirmation",
		"disapproval_count": "", "execute_tool send_http": "", "interrupted_io_reader": "interrupt", "confirmations_total": "",
	} {
		if got := approvalKind(name); got != want {
			t.Errorf("approvalKind(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestApprovalOfAnotherToolDoesNotBreak: an approval of one tool does not
// clear an action on another.
func TestApprovalOfAnotherToolDoesNotBreak(t *testing.T) {
	data := []byte(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"WebFetch","tool_input":{},"tool_response":""}
{"session_id":"s","hook_event_name":"PermissionRequest","tool_name":"Edit","tool_input":{}}
{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{},"tool_response":""}
{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"curl x"},"tool_response":""}
`)
	ss, probs := Parse("log.jsonl", data)
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	r := Analyze(&Set{Sessions: ss}, Options{})
	if obs, _ := chainsOf(r); !slices.Equal(obs, []string{"WebFetch>Read>Bash"}) {
		t.Errorf("observed %v", obs)
	}
}
