package lsp_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/internal/termsafe/termsafetest"
	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// syncBuffer is the server's stderr log in a test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHostileNamesAreEscaped: names with terminal control sequences reach
// neither the server's stderr log (shown in a terminal or an editor's
// output panel) nor the window/logMessage lines nor the diagnostics an
// editor shows, raw; each shows escaped. With and without related
// information (without it the steps are folded into the message).
func TestHostileNamesAreEscaped(t *testing.T) {
	for name, caps := range map[string]protocol.ClientCapabilities{"rich": lsptest.RichCaps(), "plain": lsptest.PlainCaps()} {
		t.Run(name, func(t *testing.T) {
			var log syncBuffer
			c := lsptest.Start(t, termsafetest.Tree(t), lsptest.Options{Caps: caps, Server: lsp.Options{Log: &log}})
			c.Initialize()
			var msgs []string
			c.Wait("diagnostics naming the agent, and the skipped file logged", func() bool {
				msgs = msgs[:0]
				named := false
				for _, p := range c.Diags {
					for _, d := range p.Diagnostics {
						msgs = append(msgs, string(d.Message.(protocol.String)))
						for _, ri := range d.RelatedInformation {
							msgs = append(msgs, ri.Message)
						}
						named = named || strings.Contains(string(d.Message.(protocol.String)), "all clear")
					}
				}
				return named && c.Logged("skipped: binary content")
			})
			for _, m := range msgs {
				termsafetest.AssertSafe(t, "diagnostic message", m)
			}
			if !strings.Contains(strings.Join(msgs, "\n"), `\x1b[2K\x1b[1A\x1b[32mall clear`) {
				t.Errorf("no diagnostic shows the escaped name:\n%s", strings.Join(msgs, "\n"))
			}
			termsafetest.AssertSafe(t, "stderr log", log.String())
			if !strings.Contains(log.String(), `bin\x1b[2K\u202e\xff.py: skipped`) {
				t.Errorf("the log lacks the escaped file name:\n%s", log.String())
			}
			// The hover on the agent names it and its tools.
			rel := "support\x1b[31m\u202e\xfe.py"
			c.Open(rel)
			text := c.Text(rel)
			h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)}, Position: lsptest.PositionOf(text, strings.Index(text, "Agent(name="))}})
			if err != nil || h == nil {
				t.Fatalf("hover on the agent: %v %v", h, err)
			}
			hover := h.Contents.(*protocol.MarkupContent).Value
			termsafetest.AssertSafe(t, "hover", hover)
			if !strings.Contains(hover, `\x1b[2K\x1b[1A\x1b[32mall clear`) {
				t.Errorf("the hover lacks the escaped name:\n%s", hover)
			}
			c.Wait("", func() bool {
				for _, l := range c.Logs {
					termsafetest.AssertSafe(t, "window/logMessage", l.Message)
				}
				return true
			})
		})
	}
}
