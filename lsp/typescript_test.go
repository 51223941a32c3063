package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

// TestTypeScriptDocument: a TypeScript agent (Vercel AI SDK, tools in
// another file imported as ./tools.js) gets its findings published on the
// agent's file, hover on a tool, and the quick fix that sets needsApproval:
// true on the tools; applied, it clears the approval findings, and a
// second request offers nothing more (idempotent).
func TestTypeScriptDocument(t *testing.T) {
	approval := map[string]bool{"rule-of-two": true, "missing-approval": true}
	c, _ := start(t, "testdata/ts-inbox", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	const agent, tools = "src/agent.ts", "src/tools.ts"
	c.Open(agent)
	c.Open(tools)
	p := c.WaitDiags(agent, func(p *protocol.PublishDiagnosticsParams) bool { return len(byCode(*p, "rule-of-two")) > 0 })
	d := byCode(p, "rule-of-two")[0]
	if !strings.Contains(string(d.Message.(protocol.String)), "triageInbox") {
		t.Errorf("rule-of-two on the wrong agent: %s", d.Message)
	}

	text := c.Text(tools)
	h := hoverAt(t, c, tools, text, "readNotes = tool(", len("readNotes = t"))
	for _, want := range []string{"**readNotes**", "Used by: triageInbox"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on readNotes lacks %q:\n%s", want, h)
		}
	}

	acts := codeActions(t, c, agent, []protocol.Diagnostic{d})
	if len(acts) == 0 {
		t.Fatal("no code action for rule-of-two")
	}
	// One action per outward tool and, when there are several, one for
	// all of them: take that one, which must clear the findings.
	a := acts[0].(*protocol.CodeAction)
	for _, x := range acts {
		if ca, ok := x.(*protocol.CodeAction); ok && strings.Contains(ca.Title, "every outward action") {
			a = ca
		}
	}
	if !strings.Contains(a.Title, "needsApproval: true") {
		t.Fatalf("preferred action %q, want needsApproval: true", a.Title)
	}
	texts := c.Apply(a.Edit)
	fixed := texts[tools]
	if strings.Count(fixed, "needsApproval: true,") == 0 {
		t.Fatalf("tools.ts after the fix:\n%s", fixed)
	}
	// The flag goes on its own line with the keys' indentation.
	if !strings.Contains(fixed, "tool({\n  needsApproval: true,\n  description:") {
		t.Errorf("layout of the inserted flag:\n%s", fixed)
	}
	t.Logf("title %s\n%s", a.Title, fixed)
	defer func() {
		if t.Failed() {
			if l := c.LastDiags(agent); l != nil {
				for _, d := range l.Diagnostics {
					t.Logf("left: %v %v", d.Code, d.Message)
				}
			}
		}
	}()
	c.WaitDiags(agent, func(p *protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if s, _ := d.Code.(protocol.String); approval[string(s)] {
				return false
			}
		}
		return true
	})
}
