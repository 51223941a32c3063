package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

const codexServers = `
[mcp_servers.filesystem]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "."]

[mcp_servers.fetch]
command = "uvx"
args = ["mcp-server-fetch"]
`

// TestClientConfigsInTheEditor: the language server reads the other
// clients' configs from disk like .mcp.json: findings on a Codex config
// that runs tools unasked, gone when the editor makes Codex ask again,
// and a Gemini CLI settings file that does not parse is a diagnostic.
func TestClientConfigsInTheEditor(t *testing.T) {
	root := lsptest.Fixture(t, "../testdata/inbox")
	for rel, text := range map[string]string{
		".codex/config.toml":    "approval_policy = \"never\"\n" + codexServers,
		".gemini/settings.json": "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(root, rel), []byte(text))
	}
	c := lsptest.Start(t, root, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10}})
	c.Initialize()
	has := func(code string) func(p *protocol.PublishDiagnosticsParams) bool {
		return func(p *protocol.PublishDiagnosticsParams) bool {
			for _, d := range p.Diagnostics {
				if c, _ := d.Code.(protocol.String); string(c) == code {
					return true
				}
			}
			return false
		}
	}
	c.WaitDiags(".codex/config.toml", has("rule-of-two"))
	p := c.WaitDiags(".gemini/settings.json", hasDiags)
	if len(p.Diagnostics) != 1 || !strings.Contains(string(p.Diagnostics[0].Message.(protocol.String)), "invalid JSON") {
		t.Errorf("gemini diagnostics = %+v", p.Diagnostics)
	}
	c.OpenText(".codex/config.toml", "approval_policy = \"on-request\"\n"+codexServers)
	c.WaitDiags(".codex/config.toml", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}
