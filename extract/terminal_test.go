package extract

import (
	"strings"
	"testing"
)

// TestVSCodeTerminalRules: chat.tools.terminal.autoApprove entries that
// approve stay, deny entries (false, {"approve": false}, a regex) take
// back what they certainly cover, the last of a repeated key counts, and
// enableAutoApprove false turns every rule off.
func TestVSCodeTerminalRules(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // approved patterns, unscoped ones marked *
	}{
		{`{"chat.tools.terminal.autoApprove": {"git status": true, "ls": true}}`, "git status,ls"},
		{`{"chat.tools.terminal.autoApprove": {"gh issue": true, "gh": false, "git": true, "git push": false}}`, "git"},
		{`{"chat.tools.terminal.autoApprove": {"curl https": true, "/^curl\\b/": false, "rm": {"approve": false}, "rm -rf": true}}`, ""},
		{`{"chat.tools.terminal.autoApprove": {"bash": true, "bash": null, "python": {"approve": true}}}`, "python"},
		{`{"chat.tools.terminal.autoApprove": {"/^\\s*.+$/": {"approve": true, "matchCommandLine": true}, "/^npm (test|run lint)$/": true}}`, "/^\\s*.+$/*"}, // the every-line regex subsumes the rest
		{`{"chat.tools.terminal.autoApprove": {"/.*/": true, "/.*/": false}}`, ""},
		{`{"chat.tools.terminal.autoApprove": {"git push": true, "/(?=x)/": false}}`, "git push"}, // a regex Go cannot read denies nothing
		{`{"chat.tools.terminal.autoApprove": {"bash": true}, "chat.tools.terminal.enableAutoApprove": false}`, ""},
	} {
		f := MCPConfig(".vscode/settings.json", []byte(tc.src))
		var got []string
		for _, r := range f.Client.Terminal {
			p := r.Pattern
			if r.Unscoped() {
				p += "*"
			}
			got = append(got, p)
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("%s: approved %q, want %q", tc.src, strings.Join(got, ","), tc.want)
		}
	}
	if f := MCPConfig(".vscode/mcp.json", []byte(`{"chat.tools.terminal.autoApprove": {"bash": true}}`)); len(f.Client.Terminal) != 0 {
		t.Errorf("mcp.json is not a settings file: %v", f.Client.Terminal)
	}
}
