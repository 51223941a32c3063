package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

// frameworkCases: for each framework with an approval API, a fixture whose
// agent breaks the Rule of Two through one unapproved action. Through the
// language server: hover on the action shows its labels and its agent, the
// agent's hover names the framework, and the preferred quick fix inserts
// the framework's own approval and clears the approval findings.
var frameworkCases = []struct {
	dir, file, agent, action, framework, gate string
}{
	{"../testdata/pydantic-ai/pos-inbox", "agent.py", "inbox_agent", "send_http", "pydantic-ai", "requires_approval=True"},
	{"../testdata/google-adk/pos-inbox", "agent.py", "inbox_agent", "send_http", "google-adk", "require_confirmation=True"},
	{"../testdata/agent-framework/pos-inbox", "agent.py", "inbox_agent", "send_http", "agent-framework", `approval_mode="always_require"`},
}

func TestFrameworkHoverAndQuickFix(t *testing.T) {
	approval := map[string]bool{"rule-of-two": true, "missing-approval": true}
	for _, tc := range frameworkCases {
		t.Run(tc.framework, func(t *testing.T) {
			c, _ := start(t, tc.dir, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
			c.Open(tc.file)
			p := c.WaitDiags(tc.file, func(p *protocol.PublishDiagnosticsParams) bool { return len(byCode(*p, "rule-of-two")) > 0 })
			text := c.Text(tc.file)

			h := hoverAt(t, c, tc.file, text, "def "+tc.action, len("def s"))
			for _, want := range []string{"**" + tc.action + "**", "| network_egress | **yes** |", "Used by: " + tc.agent} {
				if !strings.Contains(h, want) {
					t.Errorf("hover on %s lacks %q:\n%s", tc.action, want, h)
				}
			}

			d := byCode(p, "rule-of-two")[0]
			acts := codeActions(t, c, tc.file, []protocol.Diagnostic{d})
			if len(acts) == 0 {
				t.Fatal("no code action for rule-of-two")
			}
			a := acts[0].(*protocol.CodeAction)
			if !strings.Contains(a.Title, tc.gate) || !*a.IsPreferred {
				t.Fatalf("preferred action %q, want one inserting %s", a.Title, tc.gate)
			}
			texts := c.Apply(a.Edit)
			if !strings.Contains(texts[tc.file], tc.gate) {
				t.Errorf("%s after the fix lacks %s:\n%s", tc.file, tc.gate, texts[tc.file])
			}
			c.WaitDiags(tc.file, func(p *protocol.PublishDiagnosticsParams) bool {
				for _, d := range p.Diagnostics {
					if s, _ := d.Code.(protocol.String); approval[string(s)] {
						return false
					}
				}
				return true
			})
		})
	}
}
