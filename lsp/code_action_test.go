package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

func codeActions(t *testing.T, c *lsptest.Client, rel string, ds []protocol.Diagnostic, only ...protocol.CodeActionKind) []protocol.CommandOrCodeAction {
	t.Helper()
	r := protocol.Range{}
	if len(ds) > 0 {
		r = ds[0].Range
	}
	acts, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)},
		Range: r, Context: protocol.CodeActionContext{Diagnostics: ds, Only: only}})
	if err != nil {
		t.Fatalf("codeAction: %v", err)
	}
	return acts
}

func byCode(p protocol.PublishDiagnosticsParams, code string) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range p.Diagnostics {
		if s, _ := d.Code.(protocol.String); string(s) == code {
			out = append(out, d)
		}
	}
	return out
}

// TestQuickFixInbox: the fix for the demo, applied by the client, gives
// exactly the fixed demo and clears the diagnostics.
func TestQuickFixInbox(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	c.Open("agent.py")
	p := c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	for _, d := range p.Diagnostics {
		acts := codeActions(t, c, "agent.py", []protocol.Diagnostic{d})
		if len(acts) != 2 {
			t.Fatalf("%v: %d actions, want the gate and the suppression", d.Code, len(acts))
		}
		if s := acts[1].(*protocol.CodeAction); s.Title != fmt.Sprintf("Suppress %s here (add a reason)", d.Code) || *s.IsPreferred {
			t.Errorf("second action %q preferred %v", s.Title, *s.IsPreferred)
		}
		a := acts[0].(*protocol.CodeAction)
		if a.Title != "Require human approval before send_http (interrupt())" || *a.Kind != protocol.CodeActionKindQuickFix || !*a.IsPreferred {
			t.Errorf("action %q kind %v preferred %v", a.Title, *a.Kind, *a.IsPreferred)
		}
		if len(a.Edit.DocumentChanges) != 2 {
			t.Fatalf("edits in %d files, want agent.py and tools.py", len(a.Edit.DocumentChanges))
		}
		for _, dc := range a.Edit.DocumentChanges {
			te := dc.(*protocol.TextDocumentEdit)
			open := strings.HasSuffix(string(te.TextDocument.URI), "agent.py")
			if open != (te.TextDocument.Version != nil) || open && *te.TextDocument.Version != 1 {
				t.Errorf("%s: version %v (open documents are versioned)", te.TextDocument.URI, te.TextDocument.Version)
			}
		}
	}
	a := codeActions(t, c, "agent.py", p.Diagnostics[:1])[0].(*protocol.CodeAction)
	texts := c.Apply(a.Edit)
	for _, f := range []string{"agent.py", "tools.py"} {
		want, _ := os.ReadFile("../testdata/inbox-fixed/" + f)
		if texts[f] != string(want) {
			t.Errorf("%s after the fix:\n%s\nwant:\n%s", f, texts[f], want)
		}
	}
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	// The stale diagnostics offer nothing now: the gate is in place.
	if acts := codeActions(t, c, "agent.py", p.Diagnostics); len(acts) != 0 {
		t.Errorf("actions for the stale diagnostics after the fix: %d", len(acts))
	}
}

// TestQuickFixMatching: context diagnostics are matched by code and data,
// whatever their range (Neovim 0.7 echoes byte columns), or by code and
// line when a client drops the data; other kinds get nothing.
func TestQuickFixMatching(t *testing.T) {
	c, _ := start(t, "../testdata/lsp/unicode", lsptest.Options{Caps: lsptest.RichCaps()})
	p := c.WaitDiags("agent.py", hasDiags)
	d := byCode(p, "missing-approval")[0]
	moved := d
	moved.Range.Start.Character += 6 // the byte column of create_react_agent on that line
	moved.Range.End.Character += 6
	if acts := codeActions(t, c, "agent.py", []protocol.Diagnostic{moved}); len(acts) != 2 {
		t.Errorf("by data with a byte-column range: %d actions", len(acts))
	}
	bare := moved
	bare.Data = nil
	if acts := codeActions(t, c, "agent.py", []protocol.Diagnostic{bare}); len(acts) != 2 {
		t.Errorf("by code and line without data: %d actions", len(acts))
	}
	if acts := codeActions(t, c, "agent.py", []protocol.Diagnostic{d}, protocol.CodeActionKindRefactor); len(acts) != 0 {
		t.Errorf("only refactor: %d actions", len(acts))
	}
	other := d
	other.Source = protocol.NewOptional("pyright")
	other.Code = protocol.String("reportMissingImports")
	other.Data = nil
	if acts := codeActions(t, c, "agent.py", []protocol.Diagnostic{other}); len(acts) != 0 {
		t.Errorf("another server's diagnostic: %d actions", len(acts))
	}
	acts, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}}})
	if err != nil || len(acts) == 0 {
		t.Errorf("no context diagnostics: want the fixes for the findings on the line, got %d (%v)", len(acts), err)
	}
}

// TestQuickFixSeveralSinks: one fix per ungated action and a preferred one
// that gates them all; the latter clears rule-of-two.
func TestQuickFixSeveralSinks(t *testing.T) {
	c, _ := start(t, "../testdata/lsp/two-sinks", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	p := c.WaitDiags("agent.py", lsptest.CodesAre("dangerous-chain dangerous-chain missing-approval missing-approval rule-of-two"))
	acts := codeActions(t, c, "agent.py", byCode(p, "rule-of-two"))
	var titles []string
	var all *protocol.CodeAction
	for _, x := range acts {
		a := x.(*protocol.CodeAction)
		titles = append(titles, a.Title)
		if *a.IsPreferred {
			all = a
		}
	}
	want := []string{"Require human approval before delete_notes (interrupt())", "Require human approval before send_http (interrupt())",
		"Require human approval before every outward action: delete_notes, send_http (interrupt())", "Suppress rule-of-two here (add a reason)"}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") || all == nil || all.Title != want[2] {
		t.Fatalf("actions:\n%s", strings.Join(titles, "\n"))
	}
	c.Apply(all.Edit)
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// TestQuickFixOnce: with every diagnostic of the line in the context (VS
// Code's lightbulb, eglot, Neovim), a fix the findings share is offered
// once and names every diagnostic it resolves; only the fix that resolves
// the most is preferred.
func TestQuickFixOnce(t *testing.T) {
	suppress := []string{"Suppress dangerous-chain here (add a reason)", "Suppress missing-approval here (add a reason)", "Suppress rule-of-two here (add a reason)"}
	for _, tt := range []struct {
		fixture   string
		preferred string // resolves every diagnostic
		want      []string
	}{
		{"../testdata/inbox", "Require human approval before send_http (interrupt())", append([]string{"Require human approval before send_http (interrupt())"}, suppress...)},
		{"../testdata/lsp/two-sinks", "Require human approval before every outward action: delete_notes, send_http (interrupt())",
			append([]string{"Require human approval before delete_notes (interrupt())", "Require human approval before send_http (interrupt())",
				"Require human approval before every outward action: delete_notes, send_http (interrupt())"}, suppress...)},
	} {
		t.Run(filepath.Base(tt.fixture), func(t *testing.T) {
			c, _ := start(t, tt.fixture, lsptest.Options{Caps: lsptest.RichCaps()})
			execute(t, c, "acg.rescan")
			p := c.WaitDiags("agent.py", hasDiags)
			var titles []string
			for _, x := range codeActions(t, c, "agent.py", p.Diagnostics) {
				a := x.(*protocol.CodeAction)
				if *a.IsPreferred != (a.Title == tt.preferred) {
					t.Errorf("%q preferred: %v", a.Title, *a.IsPreferred)
				}
				if *a.IsPreferred && len(a.Diagnostics) != len(p.Diagnostics) {
					t.Errorf("%q names %d of the %d diagnostics it resolves", a.Title, len(a.Diagnostics), len(p.Diagnostics))
				}
				titles = append(titles, a.Title)
			}
			if strings.Join(titles, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestQuickFixRefused: where the fix would add a second gate, the action is
// shown disabled with the reason (for clients that support that).
func TestQuickFixRefused(t *testing.T) {
	c, _ := start(t, "../testdata/lsp/conditional", lsptest.Options{Caps: lsptest.RichCaps()})
	p := c.WaitDiags("agent.py", hasDiags)
	acts := codeActions(t, c, "agent.py", byCode(p, "missing-approval"))
	if len(acts) != 2 {
		t.Fatalf("%d actions, want the disabled gate and the suppression", len(acts))
	}
	a := acts[0].(*protocol.CodeAction)
	if a.Edit != nil || !strings.Contains(a.Disabled.Reason, "does not run before every action") {
		t.Errorf("want a disabled action with the reason, got %+v", a)
	}
}

// TestQuickFixPlainClient: without code action literals the fix is a
// command that asks the client to apply the edit; without versioned edits
// it uses the changes map.
func TestQuickFixPlainClient(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.PlainCaps()})
	p := c.WaitDiags("agent.py", hasDiags)
	acts := codeActions(t, c, "agent.py", p.Diagnostics[:1])
	if len(acts) != 2 {
		t.Fatalf("%d actions, want the gate and the suppression", len(acts))
	}
	cmd, ok := acts[0].(*protocol.Command)
	if !ok || cmd.Command != "acg.applyFix" {
		t.Fatalf("want the acg.applyFix command, got %T %+v", acts[0], acts[0])
	}
	if _, err := c.Server.ExecuteCommand(c.Ctx(), &protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: cmd.Arguments}); err != nil {
		t.Fatal(err)
	}
	c.Wait("workspace/applyEdit", func() bool { return len(c.Applied) == 1 })
	if len(c.Applied[0].Changes) != 2 || len(c.Applied[0].DocumentChanges) != 0 {
		t.Errorf("edit %+v", c.Applied[0])
	}
}

// TestQuickFixMixed: a prebuilt tool gets its catalog approval argument, a
// tool from outside the tree the graph's interrupt_before; medium findings
// are warnings; hover says which labels the catalog and the fail-closed
// default decided.
func TestQuickFixMixed(t *testing.T) {
	c, _ := start(t, "../testdata/lsp/mixed", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	p := c.WaitDiags("agent.py", lsptest.CodesAre("missing-approval missing-approval rule-of-two"))
	warnings := 0
	for _, d := range p.Diagnostics {
		if d.Severity == protocol.DiagnosticSeverityWarning {
			warnings++
		}
	}
	if warnings != 1 {
		t.Errorf("%d warnings, want the medium finding only", warnings)
	}
	c.Open("agent.py")
	text := c.Text("agent.py")
	if h := hoverAt(t, c, "agent.py", text, "ShellTool()", 2); !strings.Contains(h, "| executes_code | **yes** | catalog |") {
		t.Errorf("hover on ShellTool():\n%s", h)
	}
	if h := hoverAt(t, c, "agent.py", text, "crm_lookup,", 2); !strings.Contains(h, "| network_egress | **yes** | default |") || !strings.Contains(h, "outside the scanned tree") {
		t.Errorf("hover on crm_lookup:\n%s", h)
	}
	acts := codeActions(t, c, "agent.py", byCode(p, "rule-of-two"))
	var all *protocol.CodeAction
	for _, x := range acts {
		if a := x.(*protocol.CodeAction); *a.IsPreferred {
			all = a
		}
	}
	if all == nil {
		t.Fatal("no fix for every action")
	}
	texts := c.Apply(all.Edit)
	for _, want := range []string{"ShellTool(ask_human_input=True)", `interrupt_before=["tools"]`, "checkpointer=InMemorySaver()"} {
		if !strings.Contains(texts["agent.py"], want) {
			t.Errorf("fixed agent.py lacks %s:\n%s", want, texts["agent.py"])
		}
	}
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	var data map[string]any
	_ = json.Unmarshal(p.Diagnostics[0].Data, &data)
	if data["id"] == nil {
		t.Error("no data")
	}
}

// TestQuickFixClaudeCode: a finding whose check knows the edit (an
// unscoped Bash allow rule, moved to ask) offers it; applied, the finding
// clears.
func TestQuickFixClaudeCode(t *testing.T) {
	c, _ := start(t, "../testdata/claudecode/pos-unscoped-bash", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	rel := ".claude/settings.json"
	p := c.WaitDiags(rel, func(p *protocol.PublishDiagnosticsParams) bool { return len(byCode(*p, "unrestricted-execution")) == 1 })
	c.Open(rel)
	acts := codeActions(t, c, rel, byCode(p, "unrestricted-execution"))
	if len(acts) != 1 {
		t.Fatalf("%d actions", len(acts))
	}
	a := acts[0].(*protocol.CodeAction)
	if !strings.Contains(a.Title, `move the permission rule to "ask"`) || !*a.IsPreferred {
		t.Errorf("title %q preferred %v", a.Title, *a.IsPreferred)
	}
	texts := c.Apply(a.Edit)
	if !strings.Contains(texts[rel], `"ask"`) || strings.Contains(texts[rel], `"allow": ["Bash(*)"`) {
		t.Errorf("settings after the fix:\n%s", texts[rel])
	}
	c.WaitDiags(rel, func(p *protocol.PublishDiagnosticsParams) bool { return len(byCode(*p, "unrestricted-execution")) == 0 })
}

// TestQuickFixSuppress: every finding in a Python file can be suppressed
// in place. The comment goes above the finding's line with the placeholder
// where the reason goes (a snippet placeholder for clients that take
// snippets); left as it is, the suppression is reported invalid; with a
// reason, the finding clears. Findings in JSON and Markdown files are
// suppressed in .acg.yaml: nothing is offered there.
func TestQuickFixSuppress(t *testing.T) {
	const title = "Suppress rule-of-two here (add a reason)"
	suppression := func(acts []protocol.CommandOrCodeAction) *protocol.CodeAction {
		for _, x := range acts {
			if a := x.(*protocol.CodeAction); a.Title == title {
				return a
			}
		}
		return nil
	}

	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	c.Open("agent.py")
	p := c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	a := suppression(codeActions(t, c, "agent.py", byCode(p, "rule-of-two")))
	if a == nil || *a.IsPreferred || len(a.Diagnostics) != 1 {
		t.Fatalf("suppression %+v", a)
	}
	texts := c.Apply(a.Edit)
	lines := strings.Split(texts["agent.py"], "\n")
	if lines[8] != "# acg: ignore[rule-of-two] reason" || !strings.Contains(lines[9], "create_react_agent(") {
		t.Fatalf("agent.py after the suppression:\n%s", texts["agent.py"])
	}
	// The placeholder is no reason: the suppression is invalid, the
	// finding stays.
	c.WaitDiags("agent.py", lsptest.CodesAre("dangerous-chain invalid-suppression missing-approval rule-of-two"))
	lines[8] = "# acg: ignore[rule-of-two] the webhook only reaches our own status page"
	c.Change("agent.py", lsptest.Replace(strings.Join(lines, "\n")))
	c.WaitDiags("agent.py", lsptest.CodesAre("dangerous-chain missing-approval"))

	// A client that takes snippets gets the reason as a placeholder.
	caps := lsptest.RichCaps()
	caps.Workspace.WorkspaceEdit.SnippetEditSupport = ptrTo(true)
	c2, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: caps})
	p = c2.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	a = suppression(codeActions(t, c2, "agent.py", byCode(p, "rule-of-two")))
	if a == nil || len(a.Edit.DocumentChanges) != 1 {
		t.Fatalf("suppression %+v", a)
	}
	te := a.Edit.DocumentChanges[0].(*protocol.TextDocumentEdit)
	if se, ok := te.Edits[0].(*protocol.SnippetTextEdit); !ok || se.Snippet.Value != "# acg: ignore[rule-of-two] ${1:reason}\n" || se.Range.Start.Line != 8 {
		t.Errorf("edit %#v, want a snippet with the reason as placeholder", te.Edits[0])
	}

	// JSON and Markdown: no suppression offered.
	c3, _ := start(t, "../testdata/claudecode/pos-subagent-secret", lsptest.Options{Caps: lsptest.RichCaps()})
	execute(t, c3, "acg.rescan")
	for _, rel := range []string{".claude/settings.json", ".claude/agents/release-notes.md"} {
		p := c3.WaitDiags(rel, hasDiags)
		for _, x := range codeActions(t, c3, rel, p.Diagnostics) {
			if a := x.(*protocol.CodeAction); strings.HasPrefix(a.Title, "Suppress") {
				t.Errorf("%s: %q offered", rel, a.Title)
			}
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestQuickFixDeclareEffects: a finding that rests on the fail-closed
// default is a warning (an evidence-backed one an error) and offers to
// declare the assumed tool's effects in .acg.yaml: the entry lists what
// acg proved, names each assumed label in a comment, and its placeholder
// reason is a config error until a person writes one; then the tool's
// declared effects decide, and the finding is gone.
func TestQuickFixDeclareEffects(t *testing.T) {
	const title = "Declare the effects of archive in .acg.yaml (add a reason)"
	caps := lsptest.RichCaps()
	caps.Workspace.WorkspaceEdit.ResourceOperations = []protocol.ResourceOperationKind{protocol.ResourceOperationKindCreate}
	c, _ := start(t, "../testdata/lsp/needs-review", lsptest.Options{Caps: caps, InitOptions: map[string]any{"debounceMs": 10}})
	c.Open("agent.py")
	p := c.WaitDiags("agent.py", lsptest.CodesAre("missing-approval"))
	d := p.Diagnostics[0]
	if d.Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("a needs-review finding has severity %v, want a warning", d.Severity)
	}
	if h := hoverAt(t, c, "agent.py", c.Text("agent.py"), "archivist = Agent", 1); !strings.Contains(h, "Needs review: a leg rests on the fail-closed default: executes_code of archive is assumed") {
		t.Errorf("the agent's hover does not say why the finding needs review:\n%s", h)
	}
	var a *protocol.CodeAction
	for _, x := range codeActions(t, c, "agent.py", p.Diagnostics) {
		if ca := x.(*protocol.CodeAction); ca.Title == title {
			a = ca
		}
	}
	if a == nil || *a.IsPreferred {
		t.Fatalf("no %q action, or it is preferred: %+v", title, a)
	}
	if _, ok := a.Edit.DocumentChanges[0].(*protocol.CreateFile); !ok || len(a.Edit.DocumentChanges) != 2 {
		t.Fatalf("the edit must create .acg.yaml, then write it: %#v", a.Edit.DocumentChanges)
	}
	texts := c.Apply(a.Edit)
	cfg := texts[".acg.yaml"]
	for _, want := range []string{`- tool: "agent.py#archive"`, "    # - executes_code  # assumed (fail-closed default): calls acme_archive.store", "  reason: reason\n"} {
		if !strings.Contains(cfg, want) {
			t.Errorf(".acg.yaml lacks %q:\n%s", want, cfg)
		}
	}
	// The placeholder is no reason: the config is invalid and ignored.
	c.WaitDiags(".acg.yaml", func(p *protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 1 && strings.Contains(string(p.Diagnostics[0].Message.(protocol.String)), "placeholder")
	})
	c.WaitDiags("agent.py", lsptest.CodesAre("missing-approval"))
	c.Change(".acg.yaml", lsptest.Replace(strings.Replace(cfg, "reason: reason", "reason: acme_archive.store only writes to our own bucket", 1)))
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })

	// A confirmed finding is an error; a client that cannot create files is
	// told why there is no such fix.
	c2, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps()})
	p = c2.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	for _, d := range p.Diagnostics {
		if d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("%v: confirmed finding with severity %v", d.Code, d.Severity)
		}
	}
	c3, _ := start(t, "../testdata/lsp/needs-review", lsptest.Options{Caps: lsptest.RichCaps()})
	c3.Open("agent.py")
	p = c3.WaitDiags("agent.py", lsptest.CodesAre("missing-approval"))
	found := false
	for _, x := range codeActions(t, c3, "agent.py", p.Diagnostics) {
		if ca := x.(*protocol.CodeAction); strings.HasPrefix(ca.Title, "Declare the effects of archive") {
			found = ca.Edit == nil && ca.Disabled.Reason != ""
		}
	}
	if !found {
		t.Error("without file creation the declaration is offered disabled, with the reason")
	}
}
