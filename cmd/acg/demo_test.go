package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/demo"
	"github.com/acg-dev/acg/internal/pyrun"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// lspFix applies the preferred quick fix of the rule-of-two diagnostic
// through the language server, as an editor does (lsptest's client), and
// saves the edited files.
func lspFix(t *testing.T) func(ctx context.Context, dir, rel string) (*demo.Fixed, error) {
	return func(ctx context.Context, dir, rel string) (*demo.Fixed, error) {
		c := lsptest.Start(t, dir, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
		c.Initialize()
		c.Open(rel)
		var d protocol.Diagnostic
		c.WaitDiags(rel, func(p *protocol.PublishDiagnosticsParams) bool {
			for _, x := range p.Diagnostics {
				if s, _ := x.Code.(protocol.String); s == "rule-of-two" {
					d = x
					return true
				}
			}
			return false
		})
		acts, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)},
			Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
		if err != nil {
			return nil, err
		}
		for _, x := range acts {
			a, ok := x.(*protocol.CodeAction)
			if !ok || a.IsPreferred == nil || !*a.IsPreferred {
				continue
			}
			texts := c.Apply(a.Edit)
			for f, text := range texts {
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), []byte(text), 0o644); err != nil {
					return nil, err
				}
			}
			return &demo.Fixed{Title: a.Title, Files: texts}, nil
		}
		t.Fatalf("no preferred quick fix among %d actions", len(acts))
		return nil, nil
	}
}

var canaryRe = regexp.MustCompile(`ACG-CANARY-[0-9a-f]{16}`)

// TestExploitStory (issue 13): each example agent runs under its real
// framework with a scripted, prompt-injected model against a mail
// stand-in; undefended, the user's notes reach the attacker's canary. The
// language server's quick fix (a real code action, applied by lsptest's
// editor) puts the framework's approval gate in; the same attack then
// stops at the gate before send_http, the canary receives nothing, and
// acg scan of the fixed agent is clean.
func TestExploitStory(t *testing.T) {
	env, err := pyrun.FromEnvironment()
	if err != nil {
		t.Skip(err)
	}
	s, err := demo.NewScenario(env)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Issue 18: every attack also records its run as OpenTelemetry spans.
	s.TraceDir = t.TempDir()
	gates := map[string]string{"langgraph": "interrupt(", "openai-agents": "needs_approval=True", "langchain": "HumanInTheLoopMiddleware("}
	for _, ex := range demo.Examples {
		t.Run(ex.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			var out strings.Builder
			st := &demo.Story{Scenario: s, Testdata: "../../testdata", Out: &out, Scan: demoScan, Fix: lspFix(t)}
			res, err := st.Tell(ctx, ex)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if !res.Leak.Leaked(s.Secret) || !slices.Equal(res.Leak.Ran, []string{"read_email", "read_notes", "send_http"}) {
				t.Errorf("undefended: ran %v, the canary got %d requests; want the notes leaked", res.Leak.Ran, len(res.Leak.Received))
			}
			if len(res.Blocked.Received) != 0 || slices.Contains(res.Blocked.Ran, "send_http") {
				t.Errorf("fixed: ran %v, the canary got %d requests", res.Blocked.Ran, len(res.Blocked.Received))
			}
			if res.Blocked.Outcome != "interrupted" || len(res.Blocked.Interrupts) != 1 || res.Blocked.Interrupts[0].Tool != "send_http" {
				t.Errorf("fixed: outcome %s, interrupts %v; want one stop before send_http", res.Blocked.Outcome, res.Blocked.Interrupts)
			}
			var gated bool
			for _, text := range res.Fixed.Files {
				gated = gated || strings.Contains(text, gates[ex.Name])
			}
			if !gated {
				t.Errorf("the fix %q adds no %s", res.Fixed.Title, gates[ex.Name])
			}
			if !strings.Contains(res.After, "no findings") {
				t.Errorf("re-scan:\n%s", res.After)
			}
			if canaryRe.MatchString(out.String()) {
				t.Errorf("the story printed the canary secret unmasked")
			}
			checkStoryTraces(t, "../../testdata/"+ex.Fixture, res)
		})
	}
}

// checkStoryTraces (issue 18): acg traces on the undefended run's spans
// (both files the OpenTelemetry SDK wrote) reports one observed chain
// read_email -> read_notes -> send_http, linked to the rule-of-two finding
// acg scan reports for the same tree; on the fixed run's spans it reports
// the approval and no chain. The canary secret the run read reaches no
// output.
func checkStoryTraces(t *testing.T, fixture string, res *demo.Result) {
	t.Helper()
	scanOut, _, _ := cli("scan", "--root", fixture, "--format", "json")
	var scanned struct {
		Findings []struct{ ID, Rule string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(scanOut), &scanned); err != nil {
		t.Fatalf("scan json: %v", err)
	}
	var ruleOfTwo string
	for _, f := range scanned.Findings {
		if f.Rule == "rule-of-two" {
			ruleOfTwo = f.ID
		}
	}
	if ruleOfTwo == "" {
		t.Fatalf("acg scan --root %s reports no rule-of-two finding", fixture)
	}
	type tracesDoc struct {
		Findings []struct {
			ID          string                     `json:"id"`
			Rule        string                     `json:"rule"`
			Chain       []string                   `json:"chain"`
			PredictedBy string                     `json:"predicted_by"`
			Steps       []struct{ Message string } `json:"steps"`
		} `json:"findings"`
		Summary struct {
			Observed, Predicted, Blocked, Approvals int
			Unpredicted                             []string
		} `json:"summary"`
		Events []struct {
			ToolsSequence []string `json:"tools_sequence"`
			ActionTaken   string   `json:"action_taken"`
		} `json:"events"`
	}
	for _, file := range []string{"spans.json", "spans.otlp.pb"} {
		leak := filepath.Join(res.Leak.TraceDir, file)
		out, errs, code := cli("traces", leak, "--root", fixture, "--format", "json")
		if code != exitFindings {
			t.Errorf("traces %s: exit %d, want %d (an observed chain)\n%s", file, code, exitFindings, errs)
		}
		var d tracesDoc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("traces %s json: %v\n%s", file, err, out)
		}
		if len(d.Findings) != 1 || d.Findings[0].Rule != "observed-chain" ||
			!slices.Equal(d.Findings[0].Chain, []string{"read_email", "read_notes", "send_http"}) {
			t.Errorf("undefended %s: findings %+v, want one observed chain read_email -> read_notes -> send_http", file, d.Findings)
		} else if d.Findings[0].PredictedBy != ruleOfTwo || d.Summary.Predicted != 1 || len(d.Summary.Unpredicted) != 0 {
			t.Errorf("undefended %s: predicted by %q (summary %+v), want the rule-of-two finding %s", file, d.Findings[0].PredictedBy, d.Summary, ruleOfTwo)
		}
		fixed := filepath.Join(res.Blocked.TraceDir, file)
		out, errs, code = cli("traces", fixed, "--root", fixture, "--format", "json")
		if code != exitOK {
			t.Errorf("traces fixed %s: exit %d\n%s", file, code, errs)
		}
		d = tracesDoc{}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("traces fixed %s json: %v", file, err)
		}
		if len(d.Findings) != 0 || d.Summary.Approvals == 0 || d.Summary.Blocked != 1 {
			t.Errorf("fixed %s: %d findings, summary %+v; want the approval and no chain", file, len(d.Findings), d.Summary)
		}
		for _, f := range []string{"text", "json", "sarif", "jsonl"} {
			for _, p := range []string{leak, fixed} {
				out, errs, _ := cli("traces", p, "--root", fixture, "--format", f)
				if f == "text" {
					t.Logf("acg traces %s:\n%s%s", p, out, errs)
				}
				if canaryRe.MatchString(out + errs) {
					t.Errorf("traces --format %s %s: the canary secret the run read is in the output", f, p)
				}
			}
		}
	}
}

// TestDemoCommand: acg demo tells the story with its own language server
// client and exits 0; the secret is masked in what it prints.
func TestDemoCommand(t *testing.T) {
	if _, err := pyrun.FromEnvironment(); err != nil {
		t.Skip(err)
	}
	out, errs, code := cli("demo", "--framework", "langchain", "--testdata", "../../testdata")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, step := range []string{"--- 1. acg scan", "[rule-of-two]", "LEAKED", "Require human approval before send_http", "+from langchain.agents.middleware import HumanInTheLoopMiddleware", "BLOCKED", "CLEAN"} {
		if !strings.Contains(out, step) {
			t.Errorf("no %q in:\n%s", step, out)
		}
	}
	if canaryRe.MatchString(out) || !strings.Contains(out, "…(masked)") {
		t.Errorf("the secret is not masked:\n%s", out)
	}
	if _, _, code := cli("demo", "--framework", "nope"); code != exitUsage {
		t.Errorf("unknown framework: exit %d", code)
	}
}
