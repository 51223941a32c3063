package main

import (
	"context"
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
		})
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
