package lsp_test

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

// TestNotebookDiagnostics: the workspace scan reads a notebook that is not
// open and publishes its findings on the .ipynb file, at the JSON line
// and column of the code, and the cells acg could not read as warnings.
func TestNotebookDiagnostics(t *testing.T) {
	c, _ := start(t, "../testdata/notebooks/pos-magics-and-broken-cell", lsptest.Options{Caps: lsptest.RichCaps()})
	p := c.WaitDiags("research.ipynb", func(p *protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if d.Code == protocol.String("rule-of-two") {
				return true
			}
		}
		return false
	})
	var parse []protocol.Diagnostic
	for _, d := range p.Diagnostics {
		switch d.Code {
		case protocol.String("rule-of-two"):
			// `researcher = create_react_agent(` on JSON line 114; the call
			// starts at column 19 (1-based), after `    "researcher = `.
			if d.Range.Start.Line != 113 || d.Range.Start.Character != 18 {
				t.Errorf("rule-of-two at %d:%d, want 113:18", d.Range.Start.Line, d.Range.Start.Character)
			}
		case protocol.String("parse-error"):
			parse = append(parse, d)
		}
	}
	if len(parse) != 2 || parse[0].Range.Start.Line != 50 || parse[0].Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("want the two unread cells as warnings from line 51, got %+v", parse)
	}
}
