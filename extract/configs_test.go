package extract

import (
	"strings"
	"testing"
)

func TestMCPClientOf(t *testing.T) {
	for rel, want := range map[string]string{
		".mcp.json": "claude-code", "sub/.mcp.json": "claude-code", ".vscode/mcp.json": "vscode",
		".cursor/mcp.json": "cursor", "cfg/claude_desktop_config.json": "claude-desktop",
		"mcp.json": "", "settings.json": "", "x/.vscode/mcp.json.bak": "",
		// VS Code's workspace settings hold its auto-approve switch (and may hold servers).
		".vscode/settings.json": "vscode",
	} {
		if got := MCPClientOf(rel); got != want {
			t.Errorf("MCPClientOf(%q) = %q, want %q", rel, got, want)
		}
	}
}

// TestAutoApproveSettings: the settings that turn a client's tool
// confirmation off are read where they are written; false leaves it on.
func TestAutoApproveSettings(t *testing.T) {
	f := MCPConfig(".vscode/settings.json", []byte("{\n  // jsonc\n  \"chat.tools.global.autoApprove\": true,\n}\n"))
	if a := f.Client.AutoApprove; a == nil || !a.All || a.Key != "chat.tools.global.autoApprove" || a.Loc.Start.Line != 3 || !f.Client.Settings {
		t.Errorf("global auto-approve = %+v", a)
	}
	if f := MCPConfig(".vscode/settings.json", []byte(`{"chat.tools.autoApprove": false}`)); f.Client.AutoApprove != nil {
		t.Errorf("false read as auto-approve: %+v", f.Client.AutoApprove)
	}
	f = MCPConfig(".cursor/mcp.json", []byte(`{"mcpServers": {"a": {"command": "x", "autoApprove": ["t1"]}, "b": {"command": "y", "trust": true}, "c": {"command": "z", "alwaysAllow": []}}}`))
	a, b, c := f.Client.Servers[0].AutoApprove, f.Client.Servers[1].AutoApprove, f.Client.Servers[2].AutoApprove
	if !a.Covers("t1") || a.Covers("t2") || !a.Covers("*") {
		t.Errorf("autoApprove list = %+v", a)
	}
	if !b.Covers("anything") || c != nil {
		t.Errorf("trust = %+v, empty alwaysAllow = %+v", b, c)
	}
}

func TestMCPConfigPositionsAndSecrets(t *testing.T) {
	src := "{\n  // comment\n  \"servers\": {\n    \"gh\": {\"command\": \"docker\", \"args\": [\"run\", \"-e\", \"GITHUB_PERSONAL_ACCESS_TOKEN=ghp_abcdefABCDEF0123456789abcdefABCDEF01\", \"-e\", \"GITHUB_READ_ONLY=1\", \"ghcr.io/github/github-mcp-server\", \"--token\", \"s3cr3t-value\"],\n      \"env\": {\"API_KEY\": \"sk-live-123\", \"FEATURE\": \"true\"}},\n    \"pg\": {\"command\": \"npx\", \"args\": [\"@modelcontextprotocol/server-postgres\", \"postgresql://admin:hunter2@db.internal/prod\"]},\n    \"remote\": {\"type\": \"http\", \"url\": \"https://user:pw@mcp.example.com/mcp?api_key=k123&read_only=true\", \"headers\": {\"Authorization\": \"Bearer abc.def\"}},\n    \"bad\": [],\n    \"none\": {}\n  },\n}\n"
	f := MCPConfig(".vscode/mcp.json", []byte(src))
	if f.Client == nil || f.Client.Name != "vscode" || len(f.Client.Servers) != 4 {
		t.Fatalf("client = %+v", f.Client)
	}
	gh := f.Client.Servers[0]
	if gh.Name != "gh" || gh.NameLoc.Start.Line != 4 || gh.NameLoc.Start.Col != 5 {
		t.Errorf("gh at %+v", gh.NameLoc)
	}
	if gh.Launch.Switches["env:GITHUB_READ_ONLY"] != "1" || gh.Launch.Switches["env:FEATURE"] != "true" {
		t.Errorf("switches = %v", gh.Launch.Switches)
	}
	var problems []string
	for _, p := range f.Problems {
		problems = append(problems, p.Message)
	}
	if len(problems) != 2 || !strings.Contains(problems[0], `"bad": the entry must be an object`) || !strings.Contains(problems[1], `"none" has neither a command nor a url`) {
		t.Errorf("problems = %q", problems)
	}
	all := ""
	for _, s := range f.Client.Servers {
		all += s.Launch.Command + " " + strings.Join(s.Launch.Args, " ") + " " + s.Launch.URL + " " + s.Launch.Describe() + " "
		for k, v := range s.Launch.Switches {
			all += k + "=" + v + " "
		}
	}
	for _, secret := range []string{"ghp_abcdef", "s3cr3t", "sk-live", "hunter2", "admin:", "pw@", "k123", "Bearer", "abc.def"} {
		if strings.Contains(all, secret) {
			t.Errorf("secret %q kept in launch facts: %s", secret, all)
		}
	}
	if !strings.Contains(all, "ghcr.io/github/github-mcp-server") || !strings.Contains(all, "read_only=true") || !strings.Contains(all, "https://mcp.example.com/mcp") {
		t.Errorf("launch lost what matching needs: %s", all)
	}
}

func TestMCPConfigInvalid(t *testing.T) {
	f := MCPConfig(".mcp.json", []byte("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"\n  }\n"))
	if len(f.Problems) != 1 || f.Problems[0].Loc.Start.Line != 5 || !strings.HasPrefix(f.Problems[0].Message, "invalid JSON: ") {
		t.Fatalf("problems = %+v", f.Problems)
	}
	if f.Client == nil || len(f.Client.Servers) != 0 {
		t.Errorf("client = %+v", f.Client)
	}
}

func TestClaudeFileKinds(t *testing.T) {
	for rel, want := range map[string][2]string{
		".claude/settings.json":           {"settings", "."},
		"app/.claude/settings.local.json": {"settings", "app"},
		".claude/agents/reviewer.md":      {"agent", "."},
		".claude/agents/team/x.md":        {"agent", "."},
		".claude/commands/x.md":           {"", "."},
		".claude/other.json":              {"", "."},
		"docs/settings.json":              {"", "docs"},
	} {
		if got := ClaudeFileKind(rel); got != want[0] {
			t.Errorf("ClaudeFileKind(%q) = %q, want %q", rel, got, want[0])
		}
		if got := ClaudeProject(rel); got != want[1] {
			t.Errorf("ClaudeProject(%q) = %q, want %q", rel, got, want[1])
		}
	}
}

// applyEdits applies non-overlapping edits by byte offset.
func applyEdits(src string, edits []TextEdit) string {
	out := src
	for i := len(edits) - 1; i >= 0; i-- { // edits come in source order
		e := edits[i]
		out = out[:e.Loc.Start.Byte] + e.NewText + out[e.Loc.End.Byte:]
	}
	return out
}

func TestClaudeSettingsRulesAndMoveToAsk(t *testing.T) {
	for _, tc := range []struct {
		name, src, rule string
		wantAllow       []string
		wantAsk         []string
	}{
		{"no ask array", "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read\",\n      \"Bash\"\n    ],\n    \"deny\": []\n  }\n}\n", "Bash",
			[]string{"Read"}, []string{"Bash"}},
		{"first of several, ask exists", "{\"permissions\": {\"allow\": [\"Bash(*)\", \"WebFetch\"], \"ask\": [\"Edit\"]}}", "Bash(*)",
			[]string{"WebFetch"}, []string{"Edit", "Bash(*)"}},
		{"only rule, empty ask", "{\"permissions\": {\"ask\": [], \"allow\": [\"mcp__github\"]}}", "mcp__github",
			nil, []string{"mcp__github"}},
	} {
		f := ClaudeSettingsFile(".claude/settings.json", []byte(tc.src))
		if len(f.Problems) > 0 {
			t.Fatalf("%s: %v", tc.name, f.Problems)
		}
		var r *PermissionRule
		for _, x := range f.Claude.Rules {
			if x.Rule == tc.rule && x.List == "allow" {
				r = x
			}
		}
		if r == nil || len(r.ToAsk) != 2 {
			t.Fatalf("%s: rule %q not found with edits: %+v", tc.name, tc.rule, f.Claude.Rules)
		}
		if got := tc.src[r.Loc.Start.Byte:r.Loc.End.Byte]; got != `"`+tc.rule+`"` {
			t.Errorf("%s: rule range holds %q", tc.name, got)
		}
		fixed := applyEdits(tc.src, r.ToAsk)
		g := ClaudeSettingsFile(".claude/settings.json", []byte(fixed))
		if len(g.Problems) > 0 {
			t.Fatalf("%s: the fix broke the JSON: %v\n%s", tc.name, g.Problems, fixed)
		}
		var allow, ask []string
		for _, x := range g.Claude.Rules {
			switch x.List {
			case "allow":
				allow = append(allow, x.Rule)
			case "ask":
				ask = append(ask, x.Rule)
			}
		}
		if strings.Join(allow, ",") != strings.Join(tc.wantAllow, ",") || strings.Join(ask, ",") != strings.Join(tc.wantAsk, ",") {
			t.Errorf("%s: after the fix allow=%v ask=%v\n%s", tc.name, allow, ask, fixed)
		}
	}
}

func TestClaudeSettingsParts(t *testing.T) {
	src := `{"permissions": {"allow": ["Bash(git push:*)", "Read(./.env)", 3], "defaultMode": "acceptEdits"},
 "hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "curl -H 'Authorization: Bearer xyz' hook"}]}, {"matcher": "Write", "hooks": []}]},
 "disabledMcpjsonServers": ["slack"]}`
	f := ClaudeSettingsFile(".claude/settings.local.json", []byte(src))
	cs := f.Claude
	if !cs.Local || cs.DefaultMode != "acceptEdits" || len(cs.Rules) != 2 || len(cs.Hooks) != 1 || cs.Hooks[0].Matcher != "Bash|Edit" || cs.DisabledMCPServers[0] != "slack" {
		t.Fatalf("settings = %+v", cs)
	}
	if r := cs.Rules[0]; r.Tool != "Bash" || r.Spec != "git push:*" || !r.Scoped() {
		t.Errorf("rule = %+v", r)
	}
	if len(f.Problems) != 1 || !strings.Contains(f.Problems[0].Message, "a rule must be a string") {
		t.Errorf("problems = %v", f.Problems)
	}
	for _, r := range []string{"Bash", "Bash(*)", "Bash(:*)"} {
		tool, spec := ParseRule(r)
		if (&PermissionRule{Tool: tool, Spec: spec}).Scoped() {
			t.Errorf("%s counted as scoped", r)
		}
	}
}

func TestClaudeAgentFile(t *testing.T) {
	src := "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, Bash(git diff:*), mcp__github\npermissionMode: acceptEdits\n---\nYou review.\n"
	f := ClaudeAgentFile(".claude/agents/reviewer.md", []byte(src))
	sa := f.Subagent
	if sa == nil || sa.Name != "reviewer" || sa.AllTools || len(sa.Tools) != 4 || sa.PermissionMode != "acceptEdits" {
		t.Fatalf("subagent = %+v, problems %v", sa, f.Problems)
	}
	if tn := sa.Tools[2]; tn.Tool != "Bash" || tn.Spec != "git diff:*" || tn.Loc.Start.Line != 4 || tn.Loc.Start.Col != 20 {
		t.Errorf("tool = %+v", tn)
	}
	if sa.NameLoc.Start.Line != 2 || sa.NameLoc.Start.Col != 7 {
		t.Errorf("name at %+v", sa.NameLoc)
	}
	all := ClaudeAgentFile(".claude/agents/a.md", []byte("---\nname: a\ndescription: d\n---\n"))
	if !all.Subagent.AllTools {
		t.Error("no tools key must mean every tool")
	}
	list := ClaudeAgentFile(".claude/agents/b.md", []byte("---\nname: b\ntools:\n  - Read\n  - WebFetch\n---\n"))
	if len(list.Subagent.Tools) != 2 || list.Subagent.Tools[1].Loc.Start.Line != 5 {
		t.Errorf("list tools = %+v", list.Subagent.Tools)
	}
	none := ClaudeAgentFile(".claude/agents/c.md", []byte("# just markdown\n"))
	if none.Subagent != nil || len(none.Problems) != 1 {
		t.Errorf("no frontmatter: %+v %v", none.Subagent, none.Problems)
	}
	bad := ClaudeAgentFile(".claude/agents/d.md", []byte("---\nname: d\ntools: [Read\n---\n"))
	if len(bad.Problems) != 1 || !strings.HasPrefix(bad.Problems[0].Message, "invalid YAML frontmatter") || bad.Problems[0].Loc.Start.Line < 2 {
		t.Errorf("bad yaml: %+v", bad.Problems)
	}
}

// Claude Code accepts frontmatter with unquoted colons in a value, which
// strict YAML rejects ("mapping values are not allowed"): acg reads its
// simple keys line by line instead of dropping the subagent.
func TestClaudeAgentFileLenient(t *testing.T) {
	src := "---\nname: triager\ndescription: Use when: the user asks about bugs. Example: triage #12\ntools: Read, Bash(gh issue view:*)\nmodel: sonnet\n---\nYou triage.\n"
	f := ClaudeAgentFile(".claude/agents/triager.md", []byte(src))
	sa := f.Subagent
	if sa == nil || sa.Name != "triager" || sa.AllTools || len(sa.Tools) != 2 || len(f.Problems) != 0 {
		t.Fatalf("subagent = %+v, problems %v", sa, f.Problems)
	}
	if tn := sa.Tools[1]; tn.Tool != "Bash" || tn.Spec != "gh issue view:*" || tn.Loc.Start.Line != 4 || tn.Loc.Start.Col != 14 {
		t.Errorf("tool = %+v", tn)
	}
	if sa.NameLoc.Start.Line != 2 || sa.NameLoc.Start.Col != 7 {
		t.Errorf("name at %+v", sa.NameLoc)
	}
	noTools := ClaudeAgentFile(".claude/agents/x.md", []byte("---\nname: x\ndescription: Note: reads all\n---\n"))
	if noTools.Subagent == nil || !noTools.Subagent.AllTools {
		t.Errorf("lenient frontmatter without tools must inherit every tool: %+v", noTools.Subagent)
	}
}
