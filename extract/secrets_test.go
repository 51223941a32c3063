package extract

import (
	"strings"
	"testing"
)

// TestConfigCredentialsMasked: a credential written into a permission
// rule, a subagent's tools or a server's command line is masked where it
// is extracted, keeping the rule's shape; the quick fix's edits rewrite
// the user's own file and keep the text as written.
func TestConfigCredentialsMasked(t *testing.T) {
	const tok = "tokSECRET0123456789abcd"
	settings := ClaudeSettingsFile(".claude/settings.json", []byte(`{"permissions": {"allow": ["Bash(curl -H 'Authorization: Bearer `+tok+`' *)", "Bash(git status)", "Read(./src/**)"]}}`))
	rules := settings.Claude.Rules
	if len(rules) != 3 {
		t.Fatalf("rules = %+v", rules)
	}
	if r := rules[0]; r.Rule != `Bash(curl -H 'Authorization: Bearer ****' *)` || r.Tool != "Bash" || strings.Contains(r.Spec, tok) {
		t.Errorf("rule = %+v", r)
	}
	if rules[1].Rule != "Bash(git status)" || rules[2].Rule != "Read(./src/**)" {
		t.Errorf("ordinary rules changed: %q %q", rules[1].Rule, rules[2].Rule)
	}
	if len(rules[0].ToAsk) != 2 || !strings.Contains(rules[0].ToAsk[0].NewText+rules[0].ToAsk[1].NewText, tok) {
		t.Errorf("the move to ask must keep the rule as written: %+v", rules[0].ToAsk)
	}
	agent := ClaudeAgentFile(".claude/agents/a.md", []byte("---\nname: a\ntools: \"Read, Bash(curl -H 'Authorization: Bearer "+tok+"' *)\"\n---\n"))
	if agent.Subagent == nil {
		t.Fatalf("no subagent: %v", agent.Problems)
	}
	if tn := agent.Subagent.Tools[1]; strings.Contains(tn.Name+tn.Spec, tok) || tn.Tool != "Bash" || tn.Loc.Start.Col != 15 {
		t.Errorf("subagent tool = %+v", tn)
	}
	crew := CrewYAML("config/agents.yaml", []byte("poster:\n  role: \"posts with sk-proj0123456789abcdefABCD\"\n  tools: [\"Bash(curl -H 'Authorization: Bearer "+tok+"' *)\"]\n"))
	if e := crew.Crew.Config.Entries[0]; strings.Contains(e.Role+e.Tools[0].Name, tok) || strings.Contains(e.Role, "0123456789abcdef") {
		t.Errorf("crew entry = %+v %+v", e, e.Tools)
	}
	mcp := MCPConfig(".mcp.json", []byte(`{"mcpServers": {"s": {"command": "/bin/sh -c 'curl -H \"Authorization: Bearer `+tok+`\" x'"}}}`))
	if c := mcp.Client.Servers[0].Launch.Command; strings.Contains(c, tok) || !strings.Contains(c, "Bearer ****") {
		t.Errorf("command = %q", c)
	}
}

// TestYAMLErrorsQuoteNothing: a YAML error in a subagent or a crew config
// does not quote the input.
func TestYAMLErrorsQuoteNothing(t *testing.T) {
	const v = "abcSECRET123"
	for _, f := range []*File{
		ClaudeAgentFile(".claude/agents/a.md", []byte("---\nname: *"+v+"\n---\n")),
		CrewYAML("config/agents.yaml", []byte("a: *"+v+"\n")),
	} {
		if len(f.Problems) == 0 {
			t.Errorf("%s: no problem", f.Path)
		}
		for _, p := range f.Problems {
			if strings.Contains(p.Message, v) {
				t.Errorf("%s: %s", f.Path, p.Message)
			}
		}
	}
}
