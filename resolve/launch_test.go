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

// TestCodeServerForNpxBin: `npx <cmd>` and `npm exec --package=<pkg> --
// <cmd>` of a workspace package's bin run that package's server: the bin's
// built path maps back to its source, and an entry that only imports the
// server (index.ts -> ./server.js) leads to it. A package outside the
// workspaces, a registry package and a URL do not.
func TestCodeServerForNpxBin(t *testing.T) {
	cfg := func(p, text string) *extract.File { return extract.ModuleConfigFile(p, []byte(text)) }
	sv := &extract.MCPServer{ID: "packages/notes/src/server.ts#server", Name: "notes"}
	server := &extract.File{Path: "packages/notes/src/server.ts", Lang: extract.LangTypeScript, Module: "packages/notes/src/server",
		Servers: []*extract.MCPServer{sv}}
	entry := &extract.File{Path: "packages/notes/src/index.ts", Lang: extract.LangTypeScript, Module: "packages/notes/src",
		Imports: []extract.Import{{Local: "server", Module: "packages/notes/src/server", Symbol: "server"}}}
	other := &extract.File{Path: "vendor/mail/src/index.ts", Lang: extract.LangTypeScript, Module: "vendor/mail/src",
		Servers: []*extract.MCPServer{{ID: "vendor/mail/src/index.ts#server", Name: "mail"}}}
	files := []*extract.File{server, entry, other,
		cfg("package.json", `{"private": true, "workspaces": ["packages/*"]}`),
		cfg("packages/notes/package.json", `{"name": "@acme/notes-mcp", "bin": {"notes-mcp": "dist/index.js", "notes-admin": "dist/admin.js"}}`),
		cfg("vendor/mail/package.json", `{"name": "mail-mcp", "bin": "dist/index.js"}`),
	}
	for _, f := range files {
		f.Keys = extract.ModuleConfigKeys(f)
		if f.Lang == extract.LangTypeScript {
			f.Keys = []string{f.Module}
		}
	}
	b := &builder{ix: NewIndex(files)}
	cases := []struct {
		cmd  string
		args []string
		want *extract.MCPServer
	}{
		// Not a server of the tree's workspaces.
		{"npx", []string{"-y", "mail-mcp"}, nil},
		{"npx", []string{"-y", "@acme/other"}, nil},
		{"npx", []string{"-y", "github:acme/notes-mcp"}, nil},
		{"npx", []string{"-y", "@acme/notes-mcp"}, sv},
		{"npx", []string{"-y", "@acme/notes-mcp@1.2.0", "--stdio"}, sv},
		{"npx", []string{"notes-mcp"}, sv},
		{"npm", []string{"exec", "--yes", "--package=@acme/notes-mcp", "--", "notes-mcp"}, sv},
		{"npm", []string{"exec", "-p", "@acme/notes-mcp", "notes-mcp"}, sv},
		{"pnpm", []string{"exec", "notes-mcp"}, sv},
	}
	for _, tc := range cases {
		got := b.codeServerFor(&extract.MCPServer{Launch: &extract.Launch{Command: tc.cmd, Args: tc.args}})
		if got != tc.want {
			t.Errorf("%s %v: %v, want %v", tc.cmd, tc.args, got, tc.want)
		}
	}
}
