package typescript

import "github.com/acg-dev/acg/extract"

// MCP servers on the TypeScript SDK (@modelcontextprotocol/sdk 1.x): new
// McpServer({ name, version }) and its tools, registerTool(name, { title,
// description, inputSchema, annotations }, handler) and the deprecated
// tool(name, [description], [paramsSchema | annotations]..., handler). The
// handler is the tool's body; annotations that announce an effect are
// declared labels, as for Python servers. A client config that runs the
// file (node dist/server.js, npx tsx src/server.ts) resolves to these
// tools (resolve/servers.go).

var mcpServerModules = []string{
	"@modelcontextprotocol/sdk/server/mcp.js", "@modelcontextprotocol/sdk/server/mcp",
	"@modelcontextprotocol/sdk/server/index.js", "@modelcontextprotocol/sdk",
}

// Registered with the front end beside its own adapters (typescript.go).
func init() { adapters = append(adapters, MCPServerAdapter) }

// MCPServerAdapter finds the MCP servers a file defines and their tools.
func MCPServerAdapter(f *extract.File) {
	byVar := map[string]*extract.MCPServer{}
	for _, c := range f.Calls() {
		if !memberOf(c.Qual, "McpServer", mcpServerModules...) {
			continue
		}
		info := c.Expr.Arg(0, "")
		s := &extract.MCPServer{Framework: extract.FrameworkMCP, Var: c.AssignedTo, Loc: c.Loc, NameLoc: c.Loc, Ctor: c.Expr}
		if n, ok := objStr(info, "name"); ok && n != "" {
			s.Name = n
		} else if c.AssignedTo != "" {
			s.Name = c.AssignedTo
		} else {
			s.Name = "mcp-server"
		}
		s.ID = f.UniqueServerID(s.Name)
		f.Servers = append(f.Servers, s)
		if c.AssignedTo != "" {
			byVar[c.AssignedTo] = s
		}
	}
	if len(byVar) == 0 {
		return
	}
	for _, c := range f.Calls() {
		m := c.Method()
		if (m != "registerTool" && m != "tool") || c.HeadKind == extract.HeadImport {
			continue
		}
		e := c.Expr
		recv := e.Name
		if len(recv) <= len(m)+1 {
			continue
		}
		s := byVar[recv[:len(recv)-len(m)-1]]
		if s == nil {
			continue
		}
		name, ok := extract.StrArg(e, 0, "")
		if !ok || len(e.Args) < 2 {
			continue
		}
		// The handler is the last argument; between the name and it,
		// registerTool has its config object, tool() an optional
		// description, schema and annotations.
		handler := e.Args[len(e.Args)-1]
		var ann *extract.Expr
		if m == "registerTool" {
			ann = objProp(e.Arg(1, ""), "annotations")
		} else if len(e.Args) >= 4 {
			// tool(name, description?, paramsSchema, annotations, cb): an
			// object of hint keys before the handler.
			if cand := extract.Deref(e.Args[len(e.Args)-2]); hasHint(cand) {
				ann = cand
			}
		}
		t := &extract.Tool{Name: name, Symbol: name, Framework: extract.FrameworkMCP, Kind: extract.ToolFunc,
			Func: fwFunc(f, handler), FuncRef: handler, Ctor: e, Loc: c.Loc, NameLoc: e.Args[0].Loc, Server: s.ID}
		extract.AnnotationHints(t, ann)
		f.AddTool(t)
		s.Tools = append(s.Tools, t)
	}
}

func hasHint(e *extract.Expr) bool {
	for _, k := range []string{"destructiveHint", "readOnlyHint", "openWorldHint", "idempotentHint"} {
		if objProp(e, k) != nil {
			return true
		}
	}
	return false
}
