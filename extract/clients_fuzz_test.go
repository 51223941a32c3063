package extract

import "testing"

// FuzzClientConfigs: no TOML or YAML input makes the Codex or Continue
// readers panic, and every location they give is inside the file.
func FuzzClientConfigs(f *testing.F) {
	for _, s := range []string{
		"approval_policy = \"never\"\n[mcp_servers.a]\ncommand = \"x\"\n[mcp_servers.a.tools.t]\napproval_mode = \"approve\"\n",
		"[mcp_servers.\"a.b\"]\nurl = 'https://x'\n[mcp_servers.'c']\n",
		"mcp_servers = { a = { command = \"x\" } }\n",
		"mcpServers:\n  - name: a\n    command: x\n",
		"[[x]]\n[ ]\n= 1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, rel := range []string{".codex/config.toml", ".continue/config.yaml"} {
			out := MCPConfig(rel, []byte(s))
			lines := 1
			for i := 0; i < len(s); i++ {
				if s[i] == '\n' {
					lines++
				}
			}
			for _, sv := range out.Servers {
				if sv.NameLoc.Start.Line < 1 || int(sv.NameLoc.Start.Line) > lines {
					t.Fatalf("%s: server %q at line %d of %d", rel, sv.Name, sv.NameLoc.Start.Line, lines)
				}
			}
		}
	})
}
