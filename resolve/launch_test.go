package resolve

import (
	"testing"

	"github.com/acg-dev/acg/extract"
)

// TestCodeServerForJS: a client config that runs a TypeScript MCP server
// of the tree finds its source, run from source (tsx, ts-node, bun) or
// from tsc's output (node dist/server.js back to src/server.ts), and does
// not take another server for it.
func TestCodeServerForJS(t *testing.T) {
	serverAt := func(p string) (*extract.File, *extract.MCPServer) {
		sv := &extract.MCPServer{ID: p + "#server", Name: "notes"}
		return &extract.File{Path: p, Servers: []*extract.MCPServer{sv}}, sv
	}
	fSrc, svSrc := serverAt("src/server.ts")
	fPkg, svPkg := serverAt("packages/crm/src/index.ts")
	fRoot, svRoot := serverAt("tools/mail.mts")
	fPy, svPy := serverAt("py/server.py")
	b := &builder{ix: NewIndex([]*extract.File{fSrc, fPkg, fRoot, fPy})}
	cases := []struct {
		cmd  string
		args []string
		dir  string
		want *extract.MCPServer
	}{
		{"node", []string{"dist/server.js"}, "", svSrc},
		{"node", []string{"${workspaceFolder}/dist/server.js"}, "", svSrc},
		{"node", []string{"/home/dev/notes/build/server.js"}, "", svSrc},
		{"npx", []string{"tsx", "src/server.ts"}, "", svSrc},
		{"npx", []string{"-y", "tsx", "./src/server.ts"}, "", svSrc},
		{"bun", []string{"run", "src/server.ts"}, "", svSrc},
		{"node", []string{"--import", "tsx", "src/server.ts"}, "", svSrc},
		{"node", []string{"dist/index.js"}, "packages/crm", svPkg},
		{"node", []string{"packages/crm/dist/index.js"}, "", svPkg},
		{"node", []string{"out/mail.mjs"}, "tools", svRoot},
		{"python", []string{"py/server.py"}, "", svPy},
		// Not servers of the tree.
		{"npx", []string{"-y", "@modelcontextprotocol/server-filesystem", "."}, "", nil},
		{"node", []string{"dist/other.js"}, "", nil},
	}
	for _, tc := range cases {
		got := b.codeServerFor(&extract.MCPServer{Launch: &extract.Launch{Command: tc.cmd, Args: tc.args, Dir: tc.dir}})
		if got != tc.want {
			name := func(s *extract.MCPServer) string {
				if s == nil {
					return "none"
				}
				return s.ID
			}
			t.Errorf("%s %v (dir %q): %s, want %s", tc.cmd, tc.args, tc.dir, name(got), name(tc.want))
		}
	}
}
