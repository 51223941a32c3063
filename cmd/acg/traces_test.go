package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTracesCommand: acg traces on the fixtures: a run that walked the
// path exits 1 with the chain; one an approval stopped exits 0 and says
// so; a directory of broken files exits 3 with each problem on stderr and
// still reports what the valid records hold; usage errors exit 2.
func TestTracesCommand(t *testing.T) {
	out, errs, code := cli("traces", "../../testdata/traces/claude-code/approved.jsonl")
	if code != exitOK || !strings.Contains(out, "BLOCKED cc-2: WebFetch -> Read -> Bash: a person was asked (permission_request) before Bash") {
		t.Errorf("approved: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = cli("traces", "../../testdata/traces/claude-code/leak.jsonl", "--format", "jsonl")
	if code != exitFindings || !strings.Contains(out, `[CHAIN_DETECTED] {"ts":`) || !strings.Contains(out, `"tools_sequence":["WebFetch","Read","Bash"]`) ||
		!strings.Contains(out, `"action_taken":"reported"`) {
		t.Errorf("leak jsonl: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = cli("traces", "--format", "json", "../../testdata/traces/broken")
	if code != exitFindings { // the valid part of the broken files still walked the path
		t.Errorf("broken: exit %d\n%s", code, errs)
	}
	for _, want := range []string{"claude-middle-broken.jsonl:2:", "not-a-trace.json:1:", "otlp-truncated.jsonl:2: truncated", "truncated.otlp.pb: byte"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	var d struct {
		Problems []struct{ File string } `json:"problems"`
		Summary  struct{ Calls int }     `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Problems) != 7 || d.Summary.Calls != 16 {
		t.Errorf("broken json: %v, %d problems, %d calls", err, len(d.Problems), d.Summary.Calls)
	}
	if _, errs, code := cli("traces", "../../testdata/traces/broken/not-a-trace.json"); code != exitIncomplete {
		t.Errorf("not a trace: exit %d\n%s", code, errs)
	}
	out, _, code = cli("traces", "../../testdata/traces/otel-sdk/leak.json", "--format", "sarif")
	if code != exitFindings || !strings.Contains(out, `"ruleId": "observed-chain"`) {
		t.Errorf("sarif: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"traces"}, {"traces", "--format", "xml", "x"}, {"traces", "--fail-on", "bad", "x"}, {"traces", "/nonexistent/trace.json"}} {
		if _, _, code := cli(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if out, _, code := cli("traces", "--help"); code != exitOK || !strings.Contains(out, "--root") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}
