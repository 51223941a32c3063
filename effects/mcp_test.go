package effects

import (
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract"
)

func TestMCPServerFor(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct {
		cmd  string
		args []string
		url  string
		want string
	}{
		{"npx", []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, "", "filesystem"},
		{"npx", []string{"-y", "@modelcontextprotocol/server-filesystem@2025.7.1", "."}, "", "filesystem"},
		{"uvx", []string{"mcp-server-git", "--repository", "."}, "", "git"},
		{"uvx", []string{"mcp-server-git==0.6.2"}, "", "git"},
		{"docker", []string{"run", "-i", "--rm", "mcp/git"}, "", "git"},
		{"docker", []string{"run", "-i", "--rm", "mcp/github"}, "", "github-npm"},
		{"docker", []string{"run", "ghcr.io/github/github-mcp-server:v0.9"}, "", "github"},
		{"/usr/local/bin/github-mcp-server", []string{"stdio"}, "", "github"},
		{"python", []string{"-m", "mcp_server_fetch"}, "", "fetch"},
		{"", nil, "https://api.githubcopilot.com/mcp/", "github"},
		{"npx", []string{"mcp-remote", "https://mcp.linear.app/sse"}, "", "linear"},
		// A shell running the launch line: its words are tokens.
		{"bash", []string{"-c", "npx -y tavily-mcp@0.1.3"}, "", "tavily"},
		{"cmd", []string{"/c", "npx -y @modelcontextprotocol/server-filesystem C:\\work"}, "", "filesystem"},
		// Not matches: a substring, a longer package, a look-alike host.
		{"uvx", []string{"mcp-server-gitlab-tools"}, "", ""},
		{"npx", []string{"my-mcp/git-helper"}, "", ""},
		{"", nil, "https://mcp.notion.com.evil.example/mcp", ""},
		{"python", []string{"server.py"}, "", ""},
		{"bash", []string{"-c", "echo my-tavily-mcp-wrapper"}, "", ""},
	} {
		s, m := c.MCPServerFor(tc.cmd, tc.args, tc.url)
		got := ""
		if s != nil {
			got = s.ID
		}
		if got != tc.want {
			t.Errorf("MCPServerFor(%q, %q, %q) = %q (by %q), want %q", tc.cmd, tc.args, tc.url, got, m, tc.want)
		}
	}
}

func TestMCPServerReadOnlyAndTools(t *testing.T) {
	c := DefaultCatalog()
	gh, _ := c.MCPServerFor("", nil, "https://api.githubcopilot.com/mcp/")
	if gh.ReadOnly(nil, nil, "https://api.githubcopilot.com/mcp/") {
		t.Error("plain github url is not read-only")
	}
	for _, ro := range []struct {
		args []string
		sw   map[string]string
		url  string
	}{
		{[]string{"stdio", "--read-only"}, nil, ""},
		{nil, map[string]string{"env:GITHUB_READ_ONLY": "1"}, ""},
		{nil, map[string]string{"header:x-mcp-readonly": "TRUE"}, ""},
		{nil, nil, "https://api.githubcopilot.com/mcp/readonly"},
	} {
		if !gh.ReadOnly(ro.args, ro.sw, ro.url) {
			t.Errorf("read-only switch %+v not seen", ro)
		}
	}
	all, ro := gh.Exposed(false), gh.Exposed(true)
	if len(ro) == 0 || len(ro) >= len(all) {
		t.Fatalf("read-only exposes %d of %d tools", len(ro), len(all))
	}
	for _, x := range ro {
		if e := gh.ToolEffects(x.Name, true, extract.Loc{}); e.Has(NetworkEgress) || e.Has(WritesState) {
			t.Errorf("read-only tool %s acts: %v", x.Name, e.Values())
		}
	}
	e := gh.ToolEffects("some_future_tool", false, extract.Loc{})
	if !e.Has(NetworkEgress) || e.Get(NetworkEgress).DecidedBy != ByCatalog || !strings.Contains(e.Get(NetworkEgress).Evidence[0].Detail, "does not list") {
		t.Errorf("an unlisted tool must get the server defaults: %+v", e.Get(NetworkEgress))
	}
}

// TestAliasRoles follows the alias rules of scanners.md §1.4.
func TestAliasRoles(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct{ tool, spec, want string }{
		{"Read", "", "read_file"}, {"Grep", "", "read_file"}, {"Glob", "", "read_file"},
		{"Write", "", "write_file"}, {"Edit", "", "write_file"}, {"NotebookEdit", "", "write_file"},
		{"Bash", "", "shell_execute"}, {"WebFetch", "", "http_request"}, {"WebSearch", "", "browse_url"},
		{"Agent", "", "spawn_subagent"},
		{"mcp__slack__slack_send_message", "", "send_email"},
		{"mcp__github__create_issue", "", "send_email"},
		{"mcp__slack__slack_list_channels", "", ""},
		{"mcp__filesystem__read_file", "", ""},
		{"mcp__slack", "", ""},
		{"Read", "./.env", "read_secret_file"}, {"Read", "~/.ssh/id_rsa", "read_secret_file"},
		{"Grep", "./secrets/server.pem", "read_secret_file"}, {"Read", "./src/**", "read_file"},
		{"Bash", "git push:*", "git_push"}, {"Bash", "git push origin main", "git_push"},
		{"Bash", "npm test:*", "shell_execute"}, {"Bash", "npm install:*", "shell_execute"}, {"Bash", "git pushy", "shell_execute"},
		{"Bash", "curl *", "http_request"},
		// Lower-case and look-alike names keep no alias: no substrings.
		{"read", "", ""}, {"bash", "", ""}, {"read_file", "", ""}, {"tool_http_request", "", ""},
	} {
		got := strings.Join(c.AliasRoles(tc.tool, tc.spec), ",")
		if got != tc.want {
			t.Errorf("AliasRoles(%q, %q) = %q, want %q", tc.tool, tc.spec, got, tc.want)
		}
	}
}

func TestClaudeTool(t *testing.T) {
	c := DefaultCatalog()
	bash := c.ClaudeTool("Bash", "", extract.Loc{})
	if !bash.Has(ExecutesCode) || bash.Get(ExecutesCode).DecidedBy != ByCatalog || bash.RoleDecider("shell_execute") != ByAlias {
		t.Errorf("Bash: %v roles %v", bash.DecidedBy(), bash.Roles)
	}
	push := c.ClaudeTool("Bash", "git push:*", extract.Loc{})
	if !push.Has(NetworkEgress) || push.Has(ExecutesCode) || push.Get(NetworkEgress).DecidedBy != ByAlias {
		t.Errorf("Bash(git push:*): %v", push.Values())
	}
	status := c.ClaudeTool("Bash", "git status", extract.Loc{})
	if status.Has(NetworkEgress) || !status.Has(ReadsPrivate) {
		t.Errorf("Bash(git status): %v", status.Values())
	}
	odd := c.ClaudeTool("Bash", "frobnicate --all", extract.Loc{})
	if !odd.Has(NetworkEgress) || odd.Get(NetworkEgress).DecidedBy != ByDefault {
		t.Errorf("an unknown command must fail closed: %v", odd.DecidedBy())
	}
	// A server configured outside the tree is known by its name only when
	// the name is a catalogued package and the server lists the tool.
	named := c.ClaudeTool("mcp__firecrawl-mcp__firecrawl_scrape", "", extract.Loc{})
	if !named.Has(UntrustedInput) || named.Has(ReadsPrivate) || named.Get(UntrustedInput).DecidedBy != ByCatalog {
		t.Errorf("mcp__firecrawl-mcp__firecrawl_scrape: %v", named.DecidedBy())
	}
	for _, unknown := range []string{"mcp__firecrawl-mcp__firecrawl_export_all", "mcp__scraper__firecrawl_scrape", "mcp__firecrawl__firecrawl_scrape"} {
		if e := c.ClaudeTool(unknown, "", extract.Loc{}); e.Get(ReadsPrivate).DecidedBy != ByDefault {
			t.Errorf("%s must fail closed: %v", unknown, e.DecidedBy())
		}
	}
	mcp := c.ClaudeTool("mcp__slack__slack_send_message", "", extract.Loc{})
	if mcp.Get(NetworkEgress).DecidedBy != ByDefault || mcp.RoleDecider("send_email") != ByAlias {
		t.Errorf("unknown MCP tool: %v %v", mcp.DecidedBy(), mcp.Roles)
	}
}

func TestOverrideKeepsStandingRoles(t *testing.T) {
	c := DefaultCatalog()
	bash := c.ClaudeTool("Bash", "", extract.Loc{})
	if o := Override(bash, map[Label]bool{}, true, "sandboxed", extract.Loc{}); len(o.Roles) != 0 {
		t.Errorf("a complete declaration keeps roles %v", o.Roles)
	}
	if o := Override(bash, map[Label]bool{NetworkEgress: false}, false, "no network", extract.Loc{}); strings.Join(o.Roles, ",") != "shell_execute" || o.RoleDecider("shell_execute") != ByAlias {
		t.Errorf("a partial declaration must keep alias roles: %v", o.Roles)
	}
	e := newEffects()
	e.add(Evidence{Label: NetworkEgress, Role: "http_request"}, ByRules)
	e.add(Evidence{Label: ReadsPrivate, Role: "read_file"}, ByRules)
	e.settle(ByRules)
	o := Override(e, map[Label]bool{NetworkEgress: false}, false, "posts nowhere", extract.Loc{})
	if strings.Join(o.Roles, ",") != "read_file" {
		t.Errorf("roles after removing egress = %v, want read_file only", o.Roles)
	}
}
