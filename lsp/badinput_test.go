package lsp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp/lsptest"
	"github.com/acg-dev/acg/policy"
)

// A check and an extractor that panic on purpose, for TestPanicsAreContained:
// real panics inside the analysis, in this test binary only.
func init() {
	policy.Register(policy.Check{Name: "test-explodes", Doc: "panics when an agent is named explode_agent (tests)",
		Run: func(in *policy.Input) []*policy.Finding {
			for _, a := range in.Graph.Agents {
				if a.Name == "explode_agent" {
					panic("boom in a check")
				}
			}
			return nil
		}})
	incremental.RegisterKind(func(rel string) string {
		if strings.HasSuffix(rel, ".boom") {
			return "boom"
		}
		return ""
	})
	incremental.RegisterExtractor("boom", func(rel string, src []byte, tree *sitter.Tree) *extract.File {
		panic("boom in an extractor")
	})
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSkippedFiles: a binary file and a 10 MB file, on disk or opened in
// the editor, are skipped with a log message; the rest is analysed.
func TestSkippedFiles(t *testing.T) {
	root := lsptest.Fixture(t, "../testdata/inbox")
	write(t, filepath.Join(root, "blob.py"), []byte("x = 1\x00\x01\x02binary"))
	big := bytes.Repeat([]byte("value = 'padding padding padding'\n"), 10<<20/34)
	write(t, filepath.Join(root, "huge.py"), big)
	c := lsptest.Start(t, root, lsptest.Options{Caps: lsptest.RichCaps()})
	c.Initialize()
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	c.Wait("log messages for the skipped files", func() bool {
		return c.Logged("blob.py: skipped: binary content") && c.Logged("huge.py: skipped: ") && c.Logged("byte limit")
	})
	// And a diagnostic on each, as the CLI's notices: input not analysed.
	for file, code := range map[string]string{"blob.py": "binary", "huge.py": "too-large"} {
		c.WaitDiags(file, func(p *protocol.PublishDiagnosticsParams) bool {
			return len(p.Diagnostics) == 1 && p.Diagnostics[0].Code == protocol.String(code) &&
				strings.Contains(string(p.Diagnostics[0].Message.(protocol.String)), "did not analyse")
		})
	}
	c.OpenText("pasted.py", string(big))
	c.Wait("a log message for the large open document", func() bool { return c.Logged("pasted.py: skipped") })
	c.OpenText("paste2.py", "import os\x00\x00")
	c.Wait("a log message for the binary open document", func() bool { return c.Logged("paste2.py: skipped: binary content") })
	// Still serving.
	c.Open("tools.py")
	fixed, _ := os.ReadFile("../testdata/inbox-fixed/tools.py")
	c.Change("tools.py", lsptest.Replace(string(fixed)))
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// TestPanicsAreContained: a panic in a check and in an extractor is
// recovered and reported through window/logMessage; the other files keep
// being analysed and served.
func TestPanicsAreContained(t *testing.T) {
	root := lsptest.Fixture(t, "../testdata/inbox")
	write(t, filepath.Join(root, "explode.py"), []byte("from langgraph.prebuilt import create_react_agent\n\nexplode_agent = create_react_agent(\"m\", tools=[])\n"))
	write(t, filepath.Join(root, "config.boom"), []byte("anything"))
	c := lsptest.Start(t, root, lsptest.Options{Caps: lsptest.RichCaps()})
	c.Initialize()
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	c.Wait("the panics logged", func() bool {
		return c.Logged("check test-explodes failed") && c.Logged("boom in a check") &&
			c.Logged("config.boom: extraction failed: boom in an extractor")
	})
	// Hover and edits still work.
	c.Open("agent.py")
	text := c.Text("agent.py")
	h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")}, Position: lsptest.PositionOf(text, strings.Index(text, "create_react_agent("))}})
	if err != nil || h == nil {
		t.Fatalf("hover after the panics: %v %v", h, err)
	}
	c.Change("agent.py", lsptest.Replace(strings.Replace(text, "send_http]", "]", 1)))
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// TestNoSecretsInOutput: a config full of (fake) credentials; nothing the
// server sends (diagnostics, hovers, the graph, code actions, logs) holds
// any of them. Every fake secret in the fixture contains "FAKE".
func TestNoSecretsInOutput(t *testing.T) {
	c, _ := start(t, "../testdata/mcpconfig/pos-secrets", lsptest.Options{Caps: lsptest.RichCaps()})
	rel := ".vscode/mcp.json"
	p := c.WaitDiags(rel, hasDiags)
	c.Open(rel)
	text := c.Text(rel)
	var out []string
	for i := 0; i < len(text); i += 7 {
		h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)}, Position: lsptest.PositionOf(text, i)}})
		if err != nil {
			t.Fatal(err)
		}
		if h != nil {
			out = append(out, h.Contents.(*protocol.MarkupContent).Value)
		}
	}
	if len(out) == 0 {
		t.Fatal("no hover anywhere in the config")
	}
	acts, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)},
		Range: p.Diagnostics[0].Range, Context: protocol.CodeActionContext{Diagnostics: p.Diagnostics}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := protocol.Marshal(acts)
	out = append(out, string(b))
	out = append(out, string(execute(t, c, "acg.showGraph")), string(execute(t, c, "acg.showGraph", "dot")))
	c.Wait("", func() bool {
		for _, d := range c.Diags {
			b, _ := protocol.Marshal(d)
			out = append(out, string(b))
		}
		for _, l := range c.Logs {
			out = append(out, l.Message)
		}
		return true
	})
	for _, o := range out {
		if i := strings.Index(o, "FAKE"); i >= 0 {
			t.Fatalf("a secret reached the client: ...%s...", o[max(0, i-40):min(len(o), i+40)])
		}
	}
}

// TestProblemsAsDiagnostics: what keeps acg from reading a config (invalid
// JSON in an MCP config, a broken subagent frontmatter, bad crew YAML, an
// .acg.yaml error) is a diagnostic on that file, at its line, cleared when
// fixed; a Python syntax error is not (the Python server shows it, and acg
// keeps the last good facts).
func TestProblemsAsDiagnostics(t *testing.T) {
	root := lsptest.Fixture(t, "../testdata/inbox")
	for rel, text := range map[string]string{
		".mcp.json":              "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}\n",
		".claude/agents/bad.md":  "---\nname: [oops\n---\nReviews things.\n",
		"config/agents.yaml":     "researcher:\n  role: \"x\n  goal: y\n",
		".acg.yaml":              "severity_threshold: low\nbogus: 1\n",
		"broken.py":              "def f(:\n    pass\n",
		".claude/agents/fine.md": "---\nname: fine\n---\nFine.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(root, rel), []byte(text))
	}
	c := lsptest.Start(t, root, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	c.Initialize()
	for _, tt := range []struct {
		rel, code string
		line      uint32 // 0-based
		sev       protocol.DiagnosticSeverity
		msg       string
	}{
		{".mcp.json", "parse-error", 3, protocol.DiagnosticSeverityWarning, "invalid JSON"},
		{".claude/agents/bad.md", "parse-error", 1, protocol.DiagnosticSeverityWarning, "invalid YAML frontmatter"},
		{"config/agents.yaml", "parse-error", 1, protocol.DiagnosticSeverityWarning, "invalid YAML"},
		{".acg.yaml", "config-error", 1, protocol.DiagnosticSeverityError, `unknown key "bogus"`},
	} {
		p := c.WaitDiags(tt.rel, hasDiags)
		if len(p.Diagnostics) != 1 {
			t.Errorf("%s: %d diagnostics, want 1", tt.rel, len(p.Diagnostics))
			continue
		}
		d := p.Diagnostics[0]
		src, _ := d.Source.Get()
		if code, _ := d.Code.(protocol.String); string(code) != tt.code || src != "acg" || d.Severity != tt.sev ||
			d.Range.Start.Line != tt.line || !strings.Contains(string(d.Message.(protocol.String)), tt.msg) {
			t.Errorf("%s: %v %s %v line %d %q, want %s acg %v line %d %q", tt.rel, d.Code, src, d.Severity, d.Range.Start.Line+1, d.Message,
				tt.code, tt.sev, tt.line+1, tt.msg)
		}
	}
	// The findings stand (a broken .acg.yaml is not applied), and the
	// Python syntax error is not published.
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	c.WaitDiags("tools.py", lsptest.CodesAre("toxic-flow")) // published after broken.py, in path order
	c.Wait("no diagnostics on broken.py", func() bool { return c.LastDiags("broken.py") == nil && c.LastDiags(".claude/agents/fine.md") == nil })

	// Fixed in the editor, the diagnostic clears.
	c.OpenText(".mcp.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  }\n}\n")
	c.WaitDiags(".mcp.json", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	c.Change(".mcp.json", lsptest.Replace("{\n  \"mcpServers\": {\n"))
	c.WaitDiags(".mcp.json", func(p *protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 1 && strings.Contains(string(p.Diagnostics[0].Message.(protocol.String)), "invalid JSON")
	})
	c.OpenText(".acg.yaml", "severity_threshold: low\n")
	c.WaitDiags(".acg.yaml", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}
