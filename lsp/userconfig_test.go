package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

// TestUserConfigSetting: acg.userConfig (off by default) adds the user's
// ~/.claude/settings.json (a fake HOME) to the analysis: its allow rules
// take Claude Code's prompt away from the project's MCP servers, and the
// diagnostics say which file the rule came from, with ~.
func TestUserConfigSetting(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := `{"permissions": {"allow": ["mcp__fetch__fetch", "mcp__filesystem__write_file", "mcp__filesystem__read_text_file"]}}`
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, on := range []bool{false, true} {
		c, _ := start(t, "../testdata/claudecode/neg-mcp-prompts", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"userConfig": on}})
		c.Open(".claude/settings.json")
		p := c.WaitDiags(".claude/settings.json", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
		named := false
		for _, d := range p.Diagnostics {
			text := fmt.Sprint(d.Message)
			for _, r := range d.RelatedInformation {
				text += "\n" + r.Message
			}
			named = named || strings.Contains(text, "in ~/.claude/settings.json")
			if strings.Contains(text, home) {
				t.Errorf("a diagnostic expands the home directory: %s", text)
			}
		}
		if on && !named {
			t.Errorf("userConfig on: no diagnostic names ~/.claude/settings.json: %+v", p.Diagnostics)
		}
		if !on && named {
			t.Errorf("userConfig off: user-level rules were read")
		}
		ruleOfTwo := false
		for _, d := range p.Diagnostics {
			ruleOfTwo = ruleOfTwo || fmt.Sprint(d.Code) == "rule-of-two"
		}
		if on {
			// Hover on the fetch server in .mcp.json says which file lets
			// its tool run unasked.
			c.Open(".mcp.json")
			text := c.Text(".mcp.json")
			h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(".mcp.json")}, Position: lsptest.PositionOf(text, strings.Index(text, `"fetch"`)+2)}})
			if err != nil || h == nil {
				t.Fatalf("hover: %v %v", h, err)
			}
			if !strings.Contains(h.Contents.(*protocol.MarkupContent).Value, "~/.claude/settings.json") || strings.Contains(h.Contents.(*protocol.MarkupContent).Value, home) {
				t.Errorf("the hover does not name ~/.claude/settings.json (or expands the home):\n%q", h.Contents.(*protocol.MarkupContent).Value)
			}
		}
		if ruleOfTwo != on {
			t.Errorf("userConfig %v: rule-of-two reported %v (the user's allow rules take the prompts away)", on, ruleOfTwo)
		}
	}
}
