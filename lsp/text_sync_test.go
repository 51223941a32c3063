package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

func version(v int32) func(*protocol.PublishDiagnosticsParams) bool {
	return func(p *protocol.PublishDiagnosticsParams) bool {
		got, ok := p.Version.Get()
		return ok && got == v
	}
}

// TestUnicodePositions: on lines with emoji and CJK before the finding,
// ranges are exact in UTF-16 and in UTF-8, and so are the editor's range
// edits on such lines.
func TestUnicodePositions(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps protocol.ClientCapabilities
	}{{"utf-16", lsptest.RichCaps()}, {"utf-8", lsptest.UTF8(lsptest.RichCaps())}} {
		t.Run(tc.name, func(t *testing.T) {
			c, res := start(t, "../testdata/lsp/unicode", lsptest.Options{Caps: tc.caps})
			enc := lsptest.Encoding(res)
			c.Open("agent.py")
			c.Open("tools.py")
			check := func(v int32) {
				t.Helper()
				p := c.WaitDiags("agent.py", version(v))
				agent, tools := c.Text("agent.py"), c.Text("tools.py")
				if len(p.Diagnostics) == 0 {
					t.Fatal("no diagnostics")
				}
				for _, d := range p.Diagnostics {
					if s, e := lsptest.Offset(agent, d.Range.Start, enc), lsptest.Offset(agent, d.Range.End, enc); agent[s:e] != "create_react_agent" {
						t.Errorf("diagnostic range covers %q", agent[s:e])
					}
					if d.Code.(protocol.String) == "dangerous-chain" {
						continue
					}
					found := false
					for _, ri := range d.RelatedInformation {
						if strings.HasSuffix(string(ri.Location.URI), "tools.py") && strings.HasPrefix(tools[lsptest.Offset(tools, ri.Location.Range.Start, enc):], "requests.post(") {
							found = true
						}
					}
					if !found {
						t.Errorf("no related location at requests.post after the emoji")
					}
				}
			}
			check(1)
			// Type after the emoji and the CJK, then delete it again: the
			// ranges follow.
			agent := c.Text("agent.py")
			at := strings.Index(agent, "助手") + len("助手")
			pos := lsptest.PositionIn(agent, at, enc)
			v := c.Change("agent.py", lsptest.Edit(protocol.Range{Start: pos, End: pos}, "🎉漢"))
			check(v)
			end := lsptest.PositionIn(c.Text("agent.py"), at+len("🎉漢"), enc)
			v = c.Change("agent.py", lsptest.Edit(protocol.Range{Start: pos, End: end}, ""))
			check(v)
			if c.Text("agent.py") != agent {
				t.Fatal("the test client lost track of the text")
			}
		})
	}
}

// TestCrossFileEdits: an edit to the tools module, open in the editor,
// clears the finding published on the agent's file; a syntax error on the
// way keeps the last good facts; closing a file republishes it from disk.
func TestCrossFileEdits(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 20}})
	c.Open("agent.py")
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	c.Open("tools.py")
	tools := c.Text("tools.py")

	// A syntax error in the middle of typing: the findings stay.
	broken := strings.Replace(tools, "def send_http(url: str, body: str) -> str:", "def send_http(url: str, body: str -> str:", 1)
	c.Change("tools.py", lsptest.Replace(broken))
	before := len(c.Diags)
	// Then gate send_http: the findings clear, on agent.py.
	fixed, err := os.ReadFile("../testdata/inbox-fixed/tools.py")
	if err != nil {
		t.Fatal(err)
	}
	c.Change("tools.py", lsptest.Replace(string(fixed)))
	p := c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	if v, ok := p.Version.Get(); !ok || v != 1 {
		t.Errorf("agent.py is open at version 1; published version %v %v", v, ok)
	}
	c.Wait("nothing published while tools.py was broken", func() bool {
		for _, d := range c.Diags[before:] {
			if strings.HasSuffix(string(d.URI), "agent.py") && len(d.Diagnostics) != 0 {
				return false
			}
		}
		return true
	})
	// Undo in the editor: the findings come back.
	c.Change("tools.py", lsptest.Replace(tools))
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))

	// Close agent.py: its versioned diagnostics are cleared, then the file
	// on disk is analysed and published without a version.
	n := len(c.Diags)
	c.Close("agent.py")
	c.Wait("agent.py cleared then republished", func() bool {
		cleared := false
		for _, d := range c.Diags[n:] {
			if !strings.HasSuffix(string(d.URI), "agent.py") {
				continue
			}
			if len(d.Diagnostics) == 0 {
				cleared = true
			} else if _, versioned := d.Version.Get(); cleared && !versioned {
				return true
			}
		}
		return false
	})
}

// TestDiskChanges: a file changed on disk (not open) updates the findings,
// through fsnotify and through the client's didChangeWatchedFiles.
func TestDiskChanges(t *testing.T) {
	for _, viaClient := range []bool{false, true} {
		name := map[bool]string{false: "fsnotify", true: "didChangeWatchedFiles"}[viaClient]
		t.Run(name, func(t *testing.T) {
			c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), Server: lsp.Options{NoWatch: viaClient}})
			c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
			if viaClient {
				c.Wait("watcher registration", func() bool { return len(c.Registers) == 1 })
				if c.Registers[0].Method != "workspace/didChangeWatchedFiles" {
					t.Errorf("registered %s", c.Registers[0].Method)
				}
			}
			fixed, _ := os.ReadFile("../testdata/inbox-fixed/tools.py")
			if err := os.WriteFile(filepath.Join(c.Root, "tools.py"), fixed, 0o644); err != nil {
				t.Fatal(err)
			}
			if viaClient {
				if err := c.Server.DidChangeWatchedFiles(c.Ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
					{URI: c.URI("tools.py"), Type: protocol.FileChangeTypeChanged}}}); err != nil {
					t.Fatal(err)
				}
			}
			c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
			// A deleted file: its tools become unresolved (fail closed).
			if err := os.Remove(filepath.Join(c.Root, "tools.py")); err != nil {
				t.Fatal(err)
			}
			if viaClient {
				_ = c.Server.DidChangeWatchedFiles(c.Ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
					{URI: c.URI("tools.py"), Type: protocol.FileChangeTypeDeleted}}})
			}
			c.WaitDiags("agent.py", hasDiags)
		})
	}
}

// outOfSyncCodes are agent.py's findings with the out-of-sync diagnostic.
const outOfSyncCodes = "dangerous-chain missing-approval out-of-sync rule-of-two"

// TestBadEdits: a didChange with an edit the protocol does not allow (a
// negative position, a reversed range, a position that is not an integer,
// a change without text) is rejected whole: the server keeps the last good
// text, logs the rejection and marks the document out of sync with a
// diagnostic, until the client sends the whole text or saves. Hover keeps
// working on the last good text meanwhile, and edits after the resync are
// applied.
func TestBadEdits(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	c.Open("agent.py")
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	text := c.Text("agent.py")
	at := lsptest.PositionOf(text, strings.Index(text, "create_react_agent("))
	insert := func(line, char int) string {
		return fmt.Sprintf(`{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"text":"# x\n"}`, line, char, line, char)
	}
	for i, tt := range []struct{ name, changes string }{
		{"negative position", `[{"range":{"start":{"line":-1,"character":-1},"end":{"line":0,"character":0}},"text":""}]`},
		{"negative character", `[{"range":{"start":{"line":0,"character":-1},"end":{"line":0,"character":3}},"text":""}]`},
		{"negative end", `[{"range":{"start":{"line":0,"character":0},"end":{"line":-1,"character":0}},"text":""}]`},
		{"reversed lines", `[{"range":{"start":{"line":3,"character":0},"end":{"line":1,"character":0}},"text":""}]`},
		{"reversed on a line", `[{"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":1}},"text":""}]`},
		{"fraction", `[{"range":{"start":{"line":0.5,"character":0},"end":{"line":1,"character":0}},"text":""}]`},
		{"no text", `[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]`},
		{"a good edit then a bad one", `[` + insert(0, 0) + `,{"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":0}},"text":""}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := len(c.Logs)
			c.ChangeRaw("agent.py", tt.changes)
			p := c.WaitDiags("agent.py", lsptest.CodesAre(outOfSyncCodes))
			for _, d := range p.Diagnostics {
				if d.Code.(protocol.String) == "out-of-sync" && !strings.Contains(string(d.Message.(protocol.String)), "last good text") {
					t.Errorf("out-of-sync diagnostic says %q", d.Message)
				}
			}
			c.Wait("the rejection logged", func() bool {
				for _, l := range c.Logs[n:] {
					if l.Type == protocol.MessageTypeError && strings.Contains(l.Message, "rejected") {
						return true
					}
				}
				return false
			})
			// Hover answers, on the last good text.
			h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")}, Position: at}})
			if err != nil || h == nil {
				t.Fatalf("hover while out of sync: %v %v", h, err)
			}
			// A range edit cannot be placed in a text the client does not
			// share: ignored until the resync.
			c.ChangeRaw("agent.py", `[`+insert(0, 0)+`]`)
			// Resync, in turn by each of the ways.
			switch i % 3 {
			case 0:
				c.Change("agent.py", lsptest.Replace(text))
			case 1:
				c.Save("agent.py", &text)
			case 2:
				c.Save("agent.py", nil) // read from disk
			}
			p = c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
			if d := p.Diagnostics[0]; d.Range.Start.Line < at.Line-3 {
				t.Errorf("after the resync the findings moved to line %d", d.Range.Start.Line+1)
			}
		})
	}
	// In sync again: a range edit is applied (the fix: send_http leaves
	// the agent's tools).
	from := strings.Index(text, "send_http]")
	c.Change("agent.py", lsptest.Edit(protocol.Range{Start: lsptest.PositionOf(text, from), End: lsptest.PositionOf(text, from+len("send_http"))}, ""))
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// TestTolerantPositions: what the specification tolerates is applied, not
// rejected: a character past the end of its line is the end of the line,
// a line past the last line is the end of the document.
func TestTolerantPositions(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	c.Open("agent.py")
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	// Append at a line far past the end (the largest the protocol allows):
	// the findings stay, at the version sent.
	v := c.ChangeRaw("agent.py", `[{"range":{"start":{"line":2147483647,"character":7},"end":{"line":2147483647,"character":7}},"text":"\n# end\n"}]`)
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool {
		return lsptest.CodeSet(p) == lsptest.InboxAgentCodes && version(v)(p)
	})
	text := c.Text("agent.py")
	from := strings.Index(text, "send_http]")
	line := lsptest.PositionOf(text, from).Line
	// Delete "send_http" and everything after it on its line, through a
	// character far past the line's end, then put back what followed it.
	end := strings.IndexByte(text[from:], '\n') + from
	v = c.ChangeRaw("agent.py", fmt.Sprintf(`[{"range":{"start":%s,"end":{"line":%d,"character":99999}},"text":""},`+
		`{"range":{"start":%s,"end":%s},"text":%q}]`, pos(lsptest.PositionOf(text, from)), line,
		pos(lsptest.PositionOf(text, from)), pos(lsptest.PositionOf(text, from)), text[from+len("send_http"):end]))
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 && version(v)(p) })
}

func pos(p protocol.Position) string {
	return fmt.Sprintf(`{"line":%d,"character":%d}`, p.Line, p.Character)
}
