package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp/lsptest"
	"github.com/acg-dev/acg/policy"
)

func start(t *testing.T, fixture string, o lsptest.Options) (*lsptest.Client, *protocol.InitializeResult) {
	t.Helper()
	c := lsptest.Start(t, lsptest.Fixture(t, fixture), o)
	return c, c.Initialize()
}

func hasDiags(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 }

// TestInboxDiagnostics: the demo's findings are published on the agent's
// file, with the rule, its documentation, severity, source, the data the
// quick fix needs, and every path step (in both files) as related
// information.
func TestInboxDiagnostics(t *testing.T) {
	c, res := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps()})
	caps := res.Capabilities
	if caps.PositionEncoding != protocol.PositionEncodingKindUTF16 {
		t.Errorf("position encoding %q, want utf-16", caps.PositionEncoding)
	}
	if caps.DiagnosticProvider != nil {
		t.Error("a client without pull support was offered pull diagnostics")
	}
	sync, ok := caps.TextDocumentSync.(*protocol.TextDocumentSyncOptions)
	if !ok || sync.Change == nil || *sync.Change != protocol.TextDocumentSyncKindIncremental {
		t.Errorf("text sync %+v, want incremental", caps.TextDocumentSync)
	}
	p := c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	for _, d := range p.Diagnostics {
		code := string(d.Code.(protocol.String))
		if code == "dangerous-chain" {
			continue // its steps are the chain's roles; checked in the golden file
		}
		if d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("%s: severity %v, want Error (critical/high)", code, d.Severity)
		}
		if src, _ := d.Source.Get(); src != "acg" {
			t.Errorf("%s: source %q", code, src)
		}
		if want := "https://github.com/acg-dev/acg/blob/main/docs/rules/" + code + ".md"; string(d.CodeDescription.Href) != want {
			t.Errorf("%s: codeDescription %q, want %q", code, d.CodeDescription.Href, want)
		}
		// create_react_agent( on line 9, column 19 (1-based).
		if d.Range.Start.Line != 8 || d.Range.Start.Character != 18 {
			t.Errorf("%s: range starts at %d:%d, want 8:18", code, d.Range.Start.Line, d.Range.Start.Character)
		}
		var data struct {
			ID    string   `json:"id"`
			Rule  string   `json:"rule"`
			Agent string   `json:"agent"`
			Sinks []string `json:"sinks"`
		}
		if err := json.Unmarshal(d.Data, &data); err != nil || !strings.HasPrefix(data.ID, "ACG-") || data.Rule != code || data.Agent != "agent.py#inbox_assistant" || !slices.Contains(data.Sinks, "tools.py#send_http") {
			t.Errorf("%s: data %s", code, d.Data)
		}
		files := map[string]bool{}
		var msgs []string
		for _, ri := range d.RelatedInformation {
			files[ri.Location.URI.FsPath()[len(c.Root)+1:]] = true
			msgs = append(msgs, ri.Message)
		}
		if !files["agent.py"] || !files["tools.py"] {
			t.Errorf("%s: related locations in %v, want agent.py and tools.py", code, files)
		}
		joined := strings.Join(msgs, "\n")
		for _, want := range []string{"read_email", "send_http", "requests.post"} {
			if !strings.Contains(joined, want) {
				t.Errorf("%s: no related step mentions %s:\n%s", code, want, joined)
			}
		}
		if code == "rule-of-two" && !strings.Contains(joined, "read_notes") {
			t.Errorf("rule-of-two: the private-data leg is missing:\n%s", joined)
		}
	}
	// The proven flow is reported where it ends, on tools.py, with the
	// agent that carries it among the related locations.
	tp := c.WaitDiags("tools.py", lsptest.CodesAre("toxic-flow"))
	d := tp.Diagnostics[0]
	if d.Range.Start.Line != 36 || d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("toxic-flow at line %d severity %v", d.Range.Start.Line+1, d.Severity)
	}
	related := map[string]bool{}
	for _, ri := range d.RelatedInformation {
		related[ri.Location.URI.FsPath()[len(c.Root)+1:]] = true
	}
	if !related["tools.py"] {
		t.Errorf("toxic-flow related locations: %v", related)
	}
	if code := c.Shutdown(); code != 0 {
		t.Errorf("exit code %d after shutdown, want 0", code)
	}
}

// TestPlainClient: a client that states no capabilities gets pushed
// diagnostics with the path folded into the message, and no code
// description.
func TestPlainClient(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.PlainCaps()})
	p := c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	for _, d := range byCode(p, "rule-of-two") {
		msg := string(d.Message.(protocol.String))
		if len(d.RelatedInformation) > 0 || d.CodeDescription.Href != "" {
			t.Errorf("related information or code description sent to a client without them")
		}
		for _, want := range []string{"tools.py:37:12: ", "requests.post", "agent.py:9:19: agent inbox_assistant is declared here"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message lacks %q:\n%s", want, msg)
			}
		}
	}
}

// TestPullDiagnostics: a client that pulls gets no pushed diagnostics, a
// full report, then "unchanged" for the same result id, and the workspace
// report covers files that are not open.
func TestPullDiagnostics(t *testing.T) {
	c, res := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.PullCaps()})
	if dp, ok := res.Capabilities.DiagnosticProvider.(*protocol.DiagnosticOptions); !ok || !dp.InterFileDependencies || !dp.WorkspaceDiagnostics {
		t.Fatalf("diagnostic provider %+v", res.Capabilities.DiagnosticProvider)
	}
	c.Open("agent.py")
	rep, err := c.Server.Diagnostic(c.Ctx(), &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")}})
	if err != nil {
		t.Fatal(err)
	}
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || len(full.Items) != 3 || full.ResultID == nil {
		t.Fatalf("report %+v", rep)
	}
	rep, err = c.Server.Diagnostic(c.Ctx(), &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")}, PreviousResultID: full.ResultID})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rep.(*protocol.RelatedUnchangedDocumentDiagnosticReport); !ok {
		t.Fatalf("same result id: %T, want unchanged", rep)
	}
	ws, err := c.Server.DiagnosticWorkspace(c.Ctx(), &protocol.WorkspaceDiagnosticParams{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	var prev []protocol.PreviousResultId
	for _, it := range ws.Items {
		item := it.(*protocol.WorkspaceFullDocumentDiagnosticReport)
		counts[filepath.Base(item.URI.FsPath())] = len(item.Items)
		prev = append(prev, protocol.PreviousResultId{URI: item.URI, Value: *item.ResultID})
	}
	if len(counts) != 2 || counts["agent.py"] != 3 || counts["tools.py"] != 1 {
		t.Fatalf("workspace report: %v", counts)
	}
	// Nothing changed: the workspace pull waits; an edit that gates the
	// sink answers it with both files clean.
	done := make(chan *protocol.WorkspaceDiagnosticReport, 1)
	go func() {
		r, err := c.Server.DiagnosticWorkspace(c.Ctx(), &protocol.WorkspaceDiagnosticParams{PreviousResultIds: prev})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	c.Open("tools.py")
	fixed, _ := os.ReadFile("../testdata/inbox-fixed/tools.py")
	c.Change("tools.py", lsptest.Replace(string(fixed)))
	r := <-done
	if r == nil || len(r.Items) != 2 {
		t.Fatalf("after the fix the workspace report is %+v", r)
	}
	for _, it := range r.Items {
		if item := it.(*protocol.WorkspaceFullDocumentDiagnosticReport); len(item.Items) != 0 {
			t.Errorf("after the fix %s has %d diagnostics", item.URI, len(item.Items))
		}
	}
	c.Wait("a diagnostic refresh", func() bool { return c.Refreshes > 0 })
	for _, d := range c.Diags {
		t.Errorf("diagnostics pushed to a pulling client: %s", d.URI)
	}
}

// TestSettings: enabled rules and the severity threshold filter what is
// shown; they come from initializationOptions, workspace/configuration and
// didChangeConfiguration.
func TestSettings(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(),
		InitOptions: map[string]any{"acg": map[string]any{"enabledRules": []string{"missing-approval"}}},
		Config:      map[string]any{"enabledRules": []string{"missing-approval"}}})
	c.WaitDiags("agent.py", lsptest.CodesAre("missing-approval"))
	if err := c.Server.DidChangeConfiguration(c.Ctx(), &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`{"acg":{"severityThreshold":"critical"}}`)}); err != nil {
		t.Fatal(err)
	}
	c.WaitDiags("agent.py", lsptest.CodesAre("dangerous-chain rule-of-two")) // the critical ones
	// Empty settings: pull them (the test client answers with the first set).
	if err := c.Server.DidChangeConfiguration(c.Ctx(), &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`null`)}); err != nil {
		t.Fatal(err)
	}
	c.WaitDiags("agent.py", lsptest.CodesAre("missing-approval"))
	if err := c.Server.DidChangeConfiguration(c.Ctx(), &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`{"acg":{"enabledRules":["no-such-rule"]}}`)}); err != nil {
		t.Fatal(err)
	}
	c.Wait("a warning about the unknown rule", func() bool {
		for _, l := range c.Logs {
			if strings.Contains(l.Message, `unknown rule "no-such-rule"`) {
				return true
			}
		}
		return false
	})
}

// TestRelatedInformationOnce: a place appears once among a diagnostic's
// related locations (a tool that gives a leg is also a step of the path),
// unless distinct path steps are there, and every path step of the finding
// is still there, at its place.
func TestRelatedInformationOnce(t *testing.T) {
	for _, fx := range []string{"../testdata/inbox", "../testdata/lsp/two-sinks", "../testdata/claudecode/pos-subagent-secret"} {
		t.Run(filepath.Base(fx), func(t *testing.T) {
			root := lsptest.Fixture(t, fx)
			snap, _, err := incremental.Load(context.Background(), root, nil)
			if err != nil {
				t.Fatal(err)
			}
			findings := map[string]*policy.Finding{}
			for _, f := range snap.Analyze().Findings {
				findings[f.ID] = f
			}
			c := lsptest.Start(t, root, lsptest.Options{Caps: lsptest.RichCaps()})
			c.Initialize()
			execute(t, c, "acg.rescan")
			checked := 0
			for _, f := range findings {
				p := c.WaitDiags(f.Loc.File, hasDiags)
				for _, d := range p.Diagnostics {
					var data struct{ ID string }
					if json.Unmarshal(d.Data, &data) != nil || data.ID != f.ID {
						continue
					}
					checked++
					at := map[string][]string{}
					for _, ri := range d.RelatedInformation {
						key := fmt.Sprintf("%s:%d:%d", ri.Location.URI, ri.Location.Range.Start.Line+1, ri.Location.Range.Start.Character+1)
						at[key] = append(at[key], ri.Message)
					}
					steps := map[string]map[string]bool{}
					for _, st := range f.AllSteps() {
						key := fmt.Sprintf("%s:%d:%d", c.URI(st.Loc.File), st.Loc.Start.Line, st.Loc.Start.Col)
						if steps[key] == nil {
							steps[key] = map[string]bool{}
						}
						steps[key][st.Message] = true
					}
					for key, msgs := range at {
						if len(msgs) > max(1, len(steps[key])) {
							t.Errorf("%s: %d entries at %s, for %d path steps:\n%s", f.Rule, len(msgs), key, len(steps[key]), strings.Join(msgs, "\n"))
						}
					}
					for _, st := range f.Steps {
						found := false
						for _, ri := range d.RelatedInformation {
							found = found || ri.Location.URI == c.URI(st.Loc.File) && int(ri.Location.Range.Start.Line) == int(st.Loc.Start.Line-1) &&
								strings.Contains(ri.Message, st.Message)
						}
						if !found {
							t.Errorf("%s: path step %s:%d %q is missing", f.Rule, st.Loc.File, st.Loc.Start.Line, st.Message)
						}
					}
				}
			}
			if checked != len(findings) {
				t.Errorf("%d of %d findings found as diagnostics", checked, len(findings))
			}
		})
	}
}

// TestTestCodeIsInformation: a finding in test code is information in the
// editor, below every error and warning, unless includeTests is set.
func TestTestCodeIsInformation(t *testing.T) {
	for _, include := range []bool{false, true} {
		c, _ := start(t, "../testdata/tests-not-production", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"includeTests": include}})
		c.Open("tests/helpers.py")
		c.Open("app/agent.py")
		want := protocol.DiagnosticSeverityInformation
		if include {
			want = protocol.DiagnosticSeverityError
		}
		for _, d := range c.WaitDiags("tests/helpers.py", hasDiags).Diagnostics {
			if d.Severity != want {
				t.Errorf("includeTests %v: %v in test code has severity %v, want %v", include, d.Code, d.Severity, want)
			}
		}
		for _, d := range c.WaitDiags("app/agent.py", hasDiags).Diagnostics {
			if d.Severity != protocol.DiagnosticSeverityError {
				t.Errorf("includeTests %v: %v in production has severity %v", include, d.Code, d.Severity)
			}
		}
	}
}
