package extract

import (
	"strings"
	"testing"
)

func TestClientFileKinds(t *testing.T) {
	for rel, want := range map[string]string{
		".codex/config.toml": "codex", "svc/.codex/config.toml": "codex", "config.toml": "", "codex/config.toml": "",
		".gemini/settings.json": "gemini", "gemini/settings.json": "",
		".zed/settings.json": "zed", ".windsurf/mcp_config.json": "windsurf", ".codeium/mcp_config.json": "windsurf",
		"home/.codeium/windsurf/mcp_config.json": "windsurf", "windsurf/mcp_config.json": "", "mcp_config.json": "",
		".continue/mcpServers/fetch.yaml": "continue", ".continue/mcpServers/x.json": "continue", ".continue/config.yaml": "continue",
		".continue/mcpServers/notes.md": "", "mcpServers/fetch.yaml": "",
		".junie/mcp/mcp.json": "junie", "mcp/mcp.json": "",
	} {
		if got := MCPClientOf(rel); got != want {
			t.Errorf("MCPClientOf(%q) = %q, want %q", rel, got, want)
		}
	}
	for rel, want := range map[string]string{
		"p/.claude-plugin/plugin.json": "plugin", ".claude-plugin/marketplace.json": "marketplace",
		"p/agents/a.md": "agent", "p/hooks/hooks.json": "hooks", ".claude/agents/a.md": "", "x/.claude/hooks/hooks.json": "",
		"p/agents/sub/a.md": "", "p/hooks/other.json": "",
	} {
		if got := ClaudePluginKind(rel); got != want {
			t.Errorf("ClaudePluginKind(%q) = %q, want %q", rel, got, want)
		}
	}
	if got := ClaudeProject("plugins/web/.claude-plugin/plugin.json"); got != "plugins/web" {
		t.Errorf("plugin project = %q", got)
	}
}

// TestCodexConfig: the selected profile's approval_policy counts, a
// disabled server is not started, enabled_tools filters, a tool's
// approval_mode comes before its server's default, and every location
// is the line that says it.
func TestCodexConfig(t *testing.T) {
	src := `profile = "ci"
approval_policy = "on-request"

[profiles.ci]
approval_policy = "never"

[mcp_servers.off]
command = "uvx"
enabled = false

[mcp_servers."my fetch"]
command = "uvx"
args = ["mcp-server-fetch"]
enabled_tools = ["fetch"]
default_tools_approval_mode = "prompt"
env = { API_TOKEN = "sk-live-abcdefghijklmnopqrstuvwx" }

[mcp_servers."my fetch".tools.fetch]
approval_mode = "approve"
`
	f := MCPConfig(".codex/config.toml", []byte(src))
	c := f.Client
	if len(f.Problems) != 0 {
		t.Fatalf("problems: %+v", f.Problems)
	}
	if c.Mode == nil || c.Mode.Value != "never" || c.Mode.Key != "profiles.ci.approval_policy" || c.Mode.Loc.Start.Line != 5 {
		t.Errorf("mode = %+v", c.Mode)
	}
	if len(c.Servers) != 1 || c.Servers[0].Name != "my fetch" || c.Servers[0].NameLoc.Start.Line != 11 {
		t.Fatalf("servers = %+v", c.Servers)
	}
	s := c.Servers[0]
	if strings.Join(s.Allowed, ",") != "fetch" || len(s.Modes) != 2 {
		t.Fatalf("allowed %v, modes %+v", s.Allowed, s.Modes)
	}
	if m := s.Modes[0]; m.Ask || !m.Covers("fetch") || m.Loc.Start.Line != 19 || !strings.Contains(m.Fix, `[mcp_servers.my fetch.tools.fetch]`) {
		t.Errorf("tool mode = %+v", m)
	}
	if m := s.Modes[1]; !m.Ask || !m.All || m.Loc.Start.Line != 15 {
		t.Errorf("server mode = %+v", m)
	}
	if strings.Join(s.Launch.EnvKeys, ",") != "API_TOKEN" {
		t.Errorf("env names: %+v", s.Launch)
	}
	for k, v := range s.Launch.Switches {
		if strings.Contains(v, "sk-live") {
			t.Errorf("a secret was kept in switch %s", k)
		}
	}
	if s.Launch.Dir != "." {
		t.Errorf("dir = %q, want the workspace", s.Launch.Dir)
	}
}

// TestCodexPolicyForms: forms acg cannot read are notices and count as
// no confirmation (fail closed); the others ask.
func TestCodexPolicyForms(t *testing.T) {
	for src, want := range map[string]string{
		`approval_policy = "untrusted"`:                "",
		`approval_policy = "on-failure"`:               "",
		`approval_policy = "sometimes"`:                "problem",
		"[approval_policy.granular]\nmcp = true\n":     "problem",
		"sandbox_mode = \"danger-full-access\"\n":      "",
		"approval_policy = \"never\"\nmodel = \"x\"\n": "never",
	} {
		f := MCPConfig(".codex/config.toml", []byte(src))
		got := ""
		switch {
		case len(f.Problems) > 0 && f.Client.Mode != nil && !f.Client.Mode.Ask:
			got = "problem"
		case len(f.Problems) > 0:
			got = "problem without mode"
		case f.Client.Mode != nil && f.Client.Mode.Ask:
			// An asking policy is kept (so that it is known to be set,
			// for --user-config) but removes no confirmation.
			got = ""
		case f.Client.Mode != nil:
			got = f.Client.Mode.Value
		}
		if got != want {
			t.Errorf("%q: got %q, want %q (problems %+v)", src, got, want, f.Problems)
		}
	}
}

func TestGeminiFilters(t *testing.T) {
	src := `{
  "mcp": {"allowed": ["a", "b"], "excluded": ["b"]},
  "mcpServers": {
    "a": {"httpUrl": "https://mcp.example.com/mcp", "trust": true, "includeTools": ["x", "y"], "excludeTools": ["y"]},
    "b": {"command": "uvx"},
    "c": {"command": "npx"}
  }
}`
	f := MCPConfig(".gemini/settings.json", []byte(src))
	if len(f.Client.Servers) != 1 || len(f.Servers) != 1 {
		t.Fatalf("servers = %+v", f.Client.Servers)
	}
	s := f.Client.Servers[0]
	if s.Name != "a" || s.Launch.URL == "" || !s.AutoApprove.Covers("x") || s.AutoApprove.Key != "trust" {
		t.Errorf("server = %+v launch %+v", s, s.Launch)
	}
	if strings.Join(s.Allowed, ",") != "x,y" || strings.Join(s.Blocked, ",") != "y" {
		t.Errorf("allowed %v blocked %v", s.Allowed, s.Blocked)
	}
}

func TestZedAndContinue(t *testing.T) {
	f := MCPConfig(".zed/settings.json", []byte(`{"agent": {"always_allow_tool_actions": true},
  "context_servers": {"fs": {"command": {"path": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"], "env": {"K": "v"}}}}}`))
	if m := f.Client.Mode; m == nil || m.Ask || !m.All || m.Key != "agent.always_allow_tool_actions" {
		t.Errorf("zed mode = %+v", m)
	}
	if len(f.Client.Servers) != 1 || f.Client.Servers[0].Launch.Command != "npx" || len(f.Client.Servers[0].Launch.Args) != 2 {
		t.Errorf("zed servers = %+v", f.Client.Servers)
	}
	f = MCPConfig(".zed/settings.json", []byte(`{"agent": {"tool_permissions": {"default": "confirm"}, "always_allow_tool_actions": false}}`))
	if f.Client.Mode != nil {
		t.Errorf("confirming settings read as a mode: %+v", f.Client.Mode)
	}
	f = MCPConfig(".continue/config.yaml", []byte("name: a\nmcpServers:\n  - name: fetch\n    command: uvx\n    args: [mcp-server-fetch]\n  - command: nameless\n"))
	if len(f.Client.Servers) != 1 || f.Client.Servers[0].NameLoc.Start.Line != 3 || len(f.Problems) != 1 {
		t.Errorf("continue servers = %+v problems %+v", f.Client.Servers, f.Problems)
	}
	f = MCPConfig(".continue/config.yaml", []byte("mcpServers:\n  - uses: acme/search-mcp\n"))
	if len(f.Problems) != 0 || len(f.Client.Servers) != 1 || f.Client.Servers[0].Launch.Command != "continue-hub:acme/search-mcp" {
		t.Errorf("hub block = %+v problems %+v", f.Client.Servers, f.Problems)
	}
	if ClientWorkspace("continue", "app/.continue/mcpServers/x.yaml") != "app" || ClientWorkspace("continue", ".continue/config.yaml") != "." {
		t.Errorf("continue workspace wrong")
	}
}
