package resolve

import (
	"fmt"
	"path"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// MCP servers: a server a client starts resolves to its code when that is
// in the tree (a FastMCP file named in the launch command), else to the
// catalog of well-known servers (per-tool effects), else to one tool
// standing for everything the server might do (fail closed).

// servers indexes the MCP servers of a snapshot.
type servers struct {
	byID   map[string]*extract.MCPServer
	byCall map[*extract.Call]*extract.MCPServer
	// clients are the servers of one client object built in code
	// (MultiServerMCPClient({...}): one constructor, several servers).
	clients map[*extract.Call][]*extract.MCPServer
	code    []*extract.MCPServer // servers defined in code
	file    map[*extract.MCPServer]*extract.File
	// resolved caches the tools of a server for a client naming style.
	resolved map[string][]serverTool
	nodes    map[string]*capgraph.Server
}

// serverTool is one tool of a resolved server: the graph node and the
// name the server gives it.
type serverTool struct {
	tool *capgraph.Tool
	raw  string
}

func (b *builder) serverIndex() *servers {
	if b.srv != nil {
		return b.srv
	}
	s := &servers{byID: map[string]*extract.MCPServer{}, byCall: map[*extract.Call]*extract.MCPServer{}, clients: map[*extract.Call][]*extract.MCPServer{},
		file: map[*extract.MCPServer]*extract.File{}, resolved: map[string][]serverTool{}, nodes: map[string]*capgraph.Server{}}
	for _, f := range b.ix.files {
		for _, sv := range f.Servers {
			s.byID[sv.ID] = sv
			s.file[sv] = f
			if sv.Ctor != nil && sv.Ctor.Call != nil {
				s.byCall[sv.Ctor.Call] = sv
				s.clients[sv.Ctor.Call] = append(s.clients[sv.Ctor.Call], sv)
			}
			if sv.Launch == nil {
				s.code = append(s.code, sv)
			}
		}
	}
	b.srv = s
	return s
}

// serverMembers resolves an expression that builds a client-side server
// (MCPServerAdapter(...) in a tool list) into its tools.
func (b *builder) serverMembers(e *extract.Expr) ([]member, bool) {
	e = extract.Deref(e)
	if e == nil || e.Kind != extract.ExprCall || e.Call == nil {
		return nil, false
	}
	sv := b.serverIndex().byCall[e.Call]
	if sv == nil {
		return nil, false
	}
	var out []member
	for _, st := range b.serverTools(sv, "") {
		out = append(out, member{tool: st.tool, loc: e.Loc})
	}
	return out, true
}

// dictServer reads a dict literal that configures an MCP server where
// tools or servers are expected ({"type": "stdio", "command": "npx",
// "args": [...]}, {"type": "sse" | "http" | "url", "url": ...}), the shape
// hand-written agent loops and config-style SDK options take: a server of
// its own, resolved like a config file's entry (catalog, or the server's
// code in the tree). nil when e is no such dict.
func (b *builder) dictServer(e *extract.Expr) *extract.MCPServer {
	get := func(k string) *extract.Expr { return extract.Deref(e.Entry(k)) }
	typ, _ := get("type").StrValue()
	command, hasCmd := get("command").StrValue()
	url, _ := get("url").StrValue()
	transport := "stdio"
	switch strings.ToLower(typ) {
	case "", "stdio":
		if !hasCmd {
			return nil
		}
	case "sse":
		transport = "sse"
	case "http", "streamable_http", "streamable-http", "url":
		transport = "http"
	default:
		return nil
	}
	if transport != "stdio" && url == "" && get("url") == nil {
		return nil
	}
	var args []string
	if a := get("args"); a != nil && a.Kind == extract.ExprList {
		for _, x := range a.Elems {
			args = append(args, launchArg(x))
		}
	}
	name, _ := get("name").StrValue()
	if name == "" {
		name = fmt.Sprintf("mcp_server@%d", e.Loc.Start.Line)
	}
	ix := b.serverIndex()
	id := fmt.Sprintf("%s#%s@%d", e.Loc.File, name, e.Loc.Start.Line)
	if sv := ix.byID[id]; sv != nil {
		return sv
	}
	sv := &extract.MCPServer{ID: id, Framework: extract.FrameworkMCP, Loc: e.Loc, NameLoc: e.Loc, Ctor: e, Name: name,
		Launch: extract.NewLaunch(transport, command, args, url, nil, nil)}
	ix.byID[id] = sv
	if f := b.ix.fileOf(e.Scope); f != nil {
		ix.file[sv] = f
	}
	return sv
}

// launchArg is an argument of a launch as written: a literal, or for a
// path built at run time around a script of fixed name
// (os.path.join(here, "tools/calc_mcp.py")) that script's name, which
// the tree's servers are matched by; otherwise a placeholder that
// matches nothing.
func launchArg(x *extract.Expr) string {
	d := extract.Deref(x)
	if s, ok := d.StrValue(); ok {
		return s
	}
	script := ""
	var walk func(e *extract.Expr, depth int)
	walk = func(e *extract.Expr, depth int) {
		if e == nil || depth > 6 {
			return
		}
		if s, ok := e.StrValue(); ok {
			for _, ext := range []string{".py", ".js", ".mjs", ".cjs", ".ts"} {
				if strings.HasSuffix(s, ext) {
					script = s
				}
			}
			return
		}
		for _, a := range e.Args {
			walk(extract.Deref(a), depth+1)
		}
		for _, a := range e.Elems {
			walk(extract.Deref(a), depth+1)
		}
	}
	walk(d, 0)
	if script == "" {
		return "<computed>"
	}
	return script
}

// clientTools resolves client.get_tools() on a client object built in
// code with its servers (MultiServerMCPClient): every server's tools.
func (b *builder) clientTools(recv *extract.Expr, loc extract.Loc) ([]member, bool) {
	if recv == nil || recv.Kind != extract.ExprCall || recv.Call == nil {
		return nil, false
	}
	svs := b.serverIndex().clients[recv.Call]
	if len(svs) == 0 {
		return nil, false
	}
	var out []member
	for _, sv := range svs {
		for _, st := range b.serverTools(sv, "") {
			out = append(out, member{tool: st.tool, loc: loc})
		}
	}
	return out, true
}

// mcpName is the name a client shows for a server's tool: Claude's
// mcp__<server>__<tool>, or the server's own name elsewhere.
func mcpName(client, server, tool string) string {
	switch {
	case client == "claude-code" || client == "claude-desktop":
		return "mcp__" + server + "__" + tool
	case tool == "*":
		return server + "/*" // every tool of a server acg cannot list
	}
	return tool
}

// serverTools returns the tools of a server as a client sees them.
func (b *builder) serverTools(sv *extract.MCPServer, client string) []serverTool {
	ix := b.serverIndex()
	key := client + "\x00" + sv.ID
	if ts, ok := ix.resolved[key]; ok {
		return ts
	}
	var out []serverTool
	node := b.addServer(sv)
	switch {
	case sv.Launch == nil:
		for _, t := range sv.Tools {
			out = append(out, serverTool{tool: b.addTool(t), raw: t.Name})
		}
	default:
		if code := b.codeServerFor(sv); code != nil {
			for _, t := range code.Tools {
				out = append(out, serverTool{tool: b.addTool(t), raw: t.Name})
			}
			b.addServer(code)
			node.Via = "code:" + code.ID
			break
		}
		node.Via = "unknown"
		l := sv.Launch
		cat, _ := b.an.Catalog.MCPServerFor(l.Command, l.Args, l.URL)
		if cat == nil {
			name := mcpName(client, sv.Name, "*")
			why := fmt.Sprintf("MCP server %s (%s) is not in the catalog and its code is not in the scanned tree: its tools are unknown", sv.Name, l.Describe())
			if l.Transport == "amp" {
				why = fmt.Sprintf("MCP server %s comes from the CrewAI platform: its tools are unknown", sv.Name)
			}
			t := &extract.Tool{ID: sv.ID + "/*", Name: name, Framework: extract.FrameworkMCP, Kind: extract.ToolMCP, Server: sv.ID,
				Loc: sv.NameLoc, NameLoc: sv.NameLoc}
			out = append(out, serverTool{tool: b.addResolved(t, effects.Unknown(why, sv.NameLoc)), raw: "*"})
			break
		}
		node.Via = "catalog:" + cat.ID
		ro := cat.ReadOnly(l.Args, l.Switches, l.URL)
		names := []string{}
		for _, ct := range cat.Exposed(ro) {
			names = append(names, ct.Name)
		}
		if cat.ToolsUnverified {
			names = append(names, "*")
		}
		for _, raw := range names {
			if !allowedTool(sv, raw) {
				continue
			}
			t := &extract.Tool{ID: sv.ID + "/" + raw, Name: mcpName(client, sv.Name, raw), Framework: extract.FrameworkMCP, Kind: extract.ToolMCP,
				Server: sv.ID, Loc: sv.NameLoc, NameLoc: sv.NameLoc, Class: "mcp:" + cat.ID}
			e := cat.ToolEffects(raw, ro, sv.NameLoc)
			out = append(out, serverTool{tool: b.addResolved(t, e), raw: raw})
		}
	}
	// require_approval on the client gates the tools it names.
	for _, st := range out {
		for _, ap := range sv.Approvals {
			if ap.All || ap.Covers(st.raw, "") {
				gate := &extract.Approval{Kind: ap.Kind, Loc: ap.Loc, All: true, Expr: ap.Expr,
					Detail: "require_approval on MCP server " + sv.Name}
				st.tool.Approvals = append(st.tool.Approvals, gate)
			}
		}
	}
	for _, st := range out {
		node.Tools = AppendUniq(node.Tools, st.tool.ID)
	}
	ix.resolved[key] = out
	return out
}

func AppendUniq(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

func allowedTool(sv *extract.MCPServer, raw string) bool {
	for _, x := range sv.Blocked {
		if x == raw {
			return false
		}
	}
	if sv.Allowed == nil || raw == "*" {
		return true
	}
	for _, x := range sv.Allowed {
		if x == raw {
			return true
		}
	}
	return false
}

func (b *builder) addServer(sv *extract.MCPServer) *capgraph.Server {
	ix := b.serverIndex()
	if n := ix.nodes[sv.ID]; n != nil {
		return n
	}
	n := &capgraph.Server{ID: sv.ID, Name: sv.Name, Loc: sv.NameLoc}
	ix.nodes[sv.ID] = n
	b.servers = append(b.servers, n)
	return n
}

// addResolved adds a tool whose effects were decided here (catalog,
// aliases, fail-closed default) rather than by the analyzer.
func (b *builder) addResolved(t *extract.Tool, e *effects.Effects) *capgraph.Tool {
	if ct, ok := b.tools[t.ID]; ok {
		return ct
	}
	ct := &capgraph.Tool{ID: t.ID, Name: t.Name, Framework: t.Framework, Kind: t.Kind, Loc: t.NameLoc, Src: t,
		Effects: e, Approvals: t.Approvals, Server: t.Server}
	b.tools[t.ID] = ct
	b.order = append(b.order, t.ID)
	return ct
}

// codeServerFor finds the server in the tree that a launch runs: a .py
// file among the command and arguments (python server.py, uv run
// server.py, fastmcp run server.py:mcp, ${workspaceFolder}/server.py) or a
// module after -m; a TypeScript or JavaScript file (npx tsx src/server.ts,
// node dist/server.js: built output maps back to its source, see
// jsSources). Paths are matched by their trailing components, so an
// absolute path in a developer's config still finds the file.
func (b *builder) codeServerFor(sv *extract.MCPServer) *extract.MCPServer {
	ix := b.serverIndex()
	if len(ix.code) == 0 {
		return nil
	}
	if pkg, cmd, ok := npxCommand(sv.Launch); ok {
		if bin, ok := b.ix.binPath(pkg, cmd, ix.file[sv]); ok {
			// npx <cmd> of a package of the tree: the server its command
			// runs, from the command's source (tsmodules.go).
			if cs := b.entryServer(b.ix.tsSourceAt(".", bin, ix.file[sv], 0)); cs != nil {
				return cs
			}
		}
	}
	paths, modules := launchPaths(sv.Launch)
	var best *extract.MCPServer
	bestLen := 0
	for _, cs := range ix.code {
		f := ix.file[cs]
		for _, p := range paths {
			p = strings.TrimPrefix(p, "/")
			if f.Path == p || strings.HasSuffix("/"+p, "/"+f.Path) || strings.HasSuffix(f.Path, "/"+p) {
				if n := commonSuffix(f.Path, p); n > bestLen {
					best, bestLen = cs, n
				}
			}
		}
		for _, m := range modules {
			if f.Module == m || strings.HasSuffix(f.Module, "."+m) || strings.HasSuffix(f.Module, "."+m+".__main__") || f.Module == m+".__main__" || f.Module == m+".server" {
				if n := len(m); n > bestLen {
					best, bestLen = cs, n
				}
			}
		}
	}
	return best
}

// entryServer is the server a program started at file entry runs: one
// defined in the file, else in a file of the tree it imports (a bin's
// index.ts that imports ./server.js and connects it), nearest first.
func (b *builder) entryServer(entry *extract.File) *extract.MCPServer {
	ix := b.serverIndex()
	seen := map[*extract.File]bool{}
	level := []*extract.File{entry}
	for depth := 0; depth < 4 && len(level) > 0; depth++ {
		var next []*extract.File
		for _, f := range level {
			if f == nil || seen[f] {
				continue
			}
			seen[f] = true
			for _, cs := range ix.code {
				if ix.file[cs] == f {
					return cs
				}
			}
			for _, im := range f.Imports {
				if g := b.ix.module(im.Module, f); g != nil {
					next = append(next, g)
				}
			}
		}
		level = next
	}
	return nil
}

// launchPaths are the in-tree files (slash paths) and Python modules a
// launch may run.
func launchPaths(l *extract.Launch) (paths, modules []string) {
	tokens := append([]string{l.Command}, l.Args...)
	for i, t := range tokens {
		if t == "-m" && i+1 < len(tokens) {
			modules = append(modules, tokens[i+1])
			continue
		}
		p, _, _ := strings.Cut(t, ".py:")
		if p != t {
			p += ".py"
		}
		var cands []string
		switch {
		case strings.HasSuffix(p, ".py"):
			cands = []string{p}
		case jsExt(p) != "":
			cands = jsSources(p)
		}
		for _, c := range cands {
			for _, pre := range []string{"${workspaceFolder}/", "${workspaceRoot}/", "./"} {
				c = strings.TrimPrefix(c, pre)
			}
			if !strings.HasPrefix(c, "/") && l.Dir != "" && l.Dir != "." && !strings.HasPrefix(l.Dir, "/") {
				paths = append(paths, path.Join(l.Dir, c))
			}
			paths = append(paths, path.Clean(c))
		}
	}
	return paths, modules
}

// jsExt is the JavaScript or TypeScript extension of a launch argument.
func jsExt(p string) string {
	for _, e := range []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"} {
		if strings.HasSuffix(p, e) && len(p) > len(e) {
			return e
		}
	}
	return ""
}

// buildDirs are the output directories of TypeScript builds by convention
// (tsconfig outDir: dist, build, out, lib).
var buildDirs = map[string]bool{"dist": true, "build": true, "out": true, "lib": true}

// jsSources are the files a JavaScript or TypeScript launch argument may
// run, most specific first: the file itself (a .ts run by tsx, a plain .js
// server), and for built output the TypeScript source it was compiled
// from: the extension swapped (.js from .ts or .tsx, .mjs from .mts, .cjs
// from .cts) and the output directory (the first dist/build/out/lib
// segment) replaced by src/ or by nothing (rootDir the project root), as
// tsc's outDir/rootDir lay a package out.
func jsSources(p string) []string {
	ext := jsExt(p)
	out := []string{p}
	var srcExts []string
	switch ext {
	case ".js", ".jsx":
		srcExts = []string{".ts", ".tsx"}
	case ".mjs":
		srcExts = []string{".mts", ".ts"}
	case ".cjs":
		srcExts = []string{".cts", ".ts"}
	default:
		return out // already a source file
	}
	stem := strings.TrimSuffix(p, ext)
	segs := strings.Split(stem, "/")
	var roots []string
	for i, s := range segs {
		if buildDirs[s] && i < len(segs)-1 {
			pre, rest := strings.Join(segs[:i], "/"), strings.Join(segs[i+1:], "/")
			roots = append(roots, path.Join(pre, "src", rest), path.Join(pre, rest))
			if i < len(segs)-2 {
				// One output per module system (dist/esm/x.js, dist/cjs/x.js).
				rest = strings.Join(segs[i+2:], "/")
				roots = append(roots, path.Join(pre, "src", rest), path.Join(pre, rest))
			}
			break
		}
	}
	roots = append(roots, stem)
	for _, r := range roots {
		for _, e := range srcExts {
			out = append(out, r+e)
		}
	}
	return out
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// resolveCodeClients connects agents in code to the servers they start
// (Agent(mcp_servers=[...]), CrewAI mcps=[...]).
func (b *builder) resolveCodeClients(files []*extract.File) {
	for _, f := range files {
		for _, a := range f.Agents {
			ca := b.agents[a]
			if ca == nil {
				continue
			}
			// Servers built in code resolve through their constructor call;
			// what cannot be followed becomes a fail-closed tool.
			for _, e := range a.MCPServers {
				for _, m := range b.members(e, 0) {
					if m.tool != nil {
						b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: m.tool.ID, Loc: m.loc})
					}
				}
			}
			var svs []*extract.MCPServer
			for _, id := range a.ServerIDs {
				if sv := b.serverIndex().byID[id]; sv != nil {
					svs = append(svs, sv)
				}
			}
			for _, sv := range svs {
				for _, st := range b.serverTools(sv, "") {
					b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: st.tool.ID, Loc: sv.NameLoc})
				}
			}
		}
	}
}

// resolveClients makes one agent per MCP client config (VS Code, Cursor,
// Claude Desktop) with the union of its servers' tools. Each of these
// clients asks the user before it runs an MCP tool, so that confirmation
// is the approval on the tool's path (DESIGN.md, "Client confirmations are
// approvals") unless a setting the project commits removes it: VS Code's
// chat.tools.global.autoApprove in .vscode/settings.json beside the
// config, or a server's own autoApprove/alwaysAllow/trust. Claude Code
// configs join the project's Claude Code agent (claude.go).
func (b *builder) resolveClients(files []*extract.File) {
	// VS Code settings, by workspace folder (the parent of .vscode).
	settings := map[string]*extract.File{}
	// terminal: the settings file whose terminal auto-approvals apply to a
	// workspace; host: the client config that is the workspace's VS Code
	// agent (.vscode/mcp.json when there is one, else the settings file).
	terminal := map[string]*extract.File{}
	host := map[string]*extract.File{}
	for _, f := range files {
		c := f.Client
		if c == nil || c.Name != "vscode" {
			continue
		}
		ws := path.Dir(path.Dir(f.Path))
		switch {
		case c.Settings:
			if c.AutoApprove != nil {
				settings[ws] = f
			}
			if len(c.Terminal) > 0 {
				terminal[ws] = f
				if host[ws] == nil {
					host[ws] = f
				}
			}
		case len(c.Servers) > 0:
			host[ws] = f
		}
	}
	shared := map[string]*capgraph.Agent{}
	// User-level files (--user-config) merge into the project's file of
	// the same client: the project's servers and client-wide settings
	// first, the user's for what the project does not set. A client with
	// no project file is configured by the user's files alone.
	userOf := map[string][]*extract.File{}
	hasProject := map[string]bool{}
	merged := map[string]bool{}
	for _, f := range files {
		if c := f.Client; c != nil && c.Name != "claude-code" {
			if extract.IsUserFile(f.Path) {
				userOf[c.Name] = append(userOf[c.Name], f)
			} else if len(c.Servers) > 0 || c.Mode != nil || c.AutoApprove != nil {
				hasProject[c.Name] = true
			}
		}
	}
	for _, f := range files {
		c := f.Client
		if c == nil || c.Name == "claude-code" {
			continue
		}
		if extract.IsUserFile(f.Path) && hasProject[c.Name] {
			continue // merged into the project's agent below
		}
		var users []*extract.File
		if ukey := c.Name + "\x00" + extract.ClientWorkspace(c.Name, f.Path); !extract.IsUserFile(f.Path) && !merged[ukey] {
			users = userOf[c.Name]
			merged[ukey] = true // Continue's files of one workspace share an agent
		}
		ws := path.Dir(path.Dir(f.Path))
		var term *extract.File
		if c.Name == "vscode" && host[ws] == f {
			term = terminal[ws]
		}
		shell := codexShell(c)
		// The servers the agent starts, each with the file that names it.
		type served struct {
			sv   *extract.MCPServer
			file *extract.File
		}
		var all []served
		named := map[string]bool{}
		mode := c.Mode
		global, globalFile := c.AutoApprove, f.Path
		for _, sv := range c.Servers {
			all = append(all, served{sv, f})
			named[sv.Name] = true
		}
		for _, u := range users {
			for _, sv := range u.Client.Servers {
				if !named[sv.Name] { // a project server of the same name wins
					all = append(all, served{sv, u})
					named[sv.Name] = true
				}
			}
			if mode == nil && u.Client.Mode != nil {
				mode = u.Client.Mode
			}
			if global == nil && u.Client.AutoApprove != nil {
				global, globalFile = u.Client.AutoApprove, u.Path
			}
		}
		if len(all) == 0 && term == nil && !shell {
			continue
		}
		// Continue reads every block of .continue/mcpServers and the
		// config's mcpServers into one agent: one agent per workspace.
		var ca *capgraph.Agent
		key := c.Name + "\x00" + extract.ClientWorkspace(c.Name, f.Path)
		if c.Name == "continue" {
			ca = shared[key]
		}
		if ca == nil {
			a := &extract.Agent{ID: f.Path + "#" + c.Name, Name: c.Name, Framework: extract.Framework(c.Name), Ctor: "mcp-config", Loc: c.Loc, NameLoc: c.Loc}
			ca = &capgraph.Agent{ID: a.ID, Name: a.Name, Framework: a.Framework, Loc: c.Loc, Src: a}
			b.agents[a] = ca
			shared[key] = ca
		}
		if global == nil && c.Name == "vscode" {
			if sf := settings[ws]; sf != nil {
				global, globalFile = sf.Client.AutoApprove, sf.Path
			}
		}
		info := extract.ClientInfoOf(c.Name)
		for _, sd := range all {
			sv, sf := sd.sv, sd.file
			for _, st := range b.serverTools(sv, c.Name) {
				u := capgraph.Use{Agent: ca.ID, Tool: st.tool.ID, Loc: sv.NameLoc}
				var tmode *extract.ClientMode
				for _, m := range sv.Modes {
					// Under a client-wide "never ask" (Codex approval_policy
					// = "never") acg cannot tell that a tool's "prompt" still
					// asks: only settings that remove questions count there.
					if m.Ask && mode != nil && !mode.Ask && mode.All {
						continue
					}
					if m.Covers(st.raw) {
						tmode = m
						break
					}
				}
				switch {
				case tmode != nil && tmode.Ask:
					u.Gates = []*extract.Approval{{Kind: "client_confirmation", Loc: tmode.Loc, All: true,
						Detail: fmt.Sprintf("%s asks the user before it runs %s: %s = %q in %s", info.Title, st.tool.Name, tmode.Key, tmode.Value, sf.Path)}}
				case tmode != nil:
					u.Grants = []capgraph.Grant{modeGrant(tmode, sf.Path, st.tool.Name, info.Title)}
				case sv.AutoApprove.Covers(st.raw):
					g := autoGrant(sv.AutoApprove, sf.Path, st.tool.Name)
					if c.Name == "gemini" && sv.AutoApprove.Key == "trust" {
						g.Advice = fmt.Sprintf(`set "trust": false on server %q in %s, so Gemini CLI confirms each call`, sv.Name, sf.Path)
					}
					u.Grants = []capgraph.Grant{g}
				case global != nil:
					u.Grants = []capgraph.Grant{autoGrant(global, globalFile, st.tool.Name)}
				case mode != nil && !mode.Ask && mode.Covers(st.raw):
					u.Grants = []capgraph.Grant{modeGrant(mode, modeFile(mode, f), st.tool.Name, info.Title)}
				case info.Confirms:
					u.Gates = []*extract.Approval{{Kind: "client_confirmation", Loc: sv.NameLoc, All: true,
						Detail: fmt.Sprintf("%s asks the user before it runs %s (an MCP tool); no setting in the project turns that off", info.Title, st.tool.Name)}}
				default:
					u.Grants = []capgraph.Grant{{Loc: sv.NameLoc, Advice: info.Keep,
						Why: fmt.Sprintf("%s runs %s without asking: its documentation describes no confirmation before an MCP tool call", info.Title, st.tool.Name)}}
				}
				b.uses = append(b.uses, u)
			}
		}
		if shell {
			b.codexShellTool(ca, f)
		}
		if term != nil {
			b.terminalTools(ca, term)
		}
	}
}

// modeFile is the file a client-wide mode was read from.
func modeFile(m *extract.ClientMode, f *extract.File) string {
	if m.Loc.File != "" {
		return m.Loc.File
	}
	return f.Path
}

// terminalTools gives a VS Code agent one terminal tool per command its
// settings auto-approve (chat.tools.terminal.autoApprove), labelled like
// the same command in a scoped Claude Code Bash rule; a command left out
// keeps VS Code's confirmation, so it is no action of the agent. A bare
// shell or interpreter ("bash": true) or a regex matching every command
// line approves any command: that tool is unscoped, the VS Code analogue
// of Bash(*), and reported as unrestricted-execution.
func (b *builder) terminalTools(ca *capgraph.Agent, sf *extract.File) {
	cat := b.an.Catalog
	for _, r := range sf.Client.Terminal {
		name := "run_in_terminal(" + r.Pattern + ")"
		t := &extract.Tool{ID: sf.Path + "#" + name, Name: name, Framework: "vscode", Kind: extract.ToolBuiltin, Loc: r.Loc, NameLoc: r.Loc}
		what := fmt.Sprintf("VS Code's terminal tool, auto-approved for %q,", r.Pattern)
		var e *effects.Effects
		switch {
		case r.Unscoped():
			e = effects.AnyCommand(fmt.Sprintf("%s matches every command line", what), r.Loc)
		case r.Regex:
			e = effects.Unknown(fmt.Sprintf("%s runs any command line the regex matches: acg cannot tell which commands, anything is assumed", what), r.Loc)
			for _, role := range cat.AliasRoles("Bash", "") {
				e.AddRole(role, effects.ByAlias)
			}
		default:
			e = cat.TerminalCommand(r.Pattern, what, r.Loc)
		}
		if r.Unscoped() || !r.Regex && cat.Shell(r.Pattern) {
			t.Extra = map[extract.ExtraKey]string{extract.ExtraShell: "unscoped"}
		}
		node := b.addResolved(t, e)
		why := fmt.Sprintf("%q in %s lets VS Code run %s without asking", "chat.tools.terminal.autoApprove", sf.Path, describeTerminal(r))
		b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: node.ID, Loc: r.Loc, Grants: []capgraph.Grant{{Loc: r.Loc, Why: why}}})
	}
}

func describeTerminal(r extract.TerminalRule) string {
	if r.Regex {
		return "any command line matching " + r.Pattern
	}
	return fmt.Sprintf("any command starting with %q", r.Pattern)
}

// autoGrant says which setting lets a tool run without asking.
func autoGrant(a *extract.AutoApprove, file, tool string) capgraph.Grant {
	why := fmt.Sprintf("%q in %s runs every tool without asking", a.Key, file)
	if !a.All {
		why = fmt.Sprintf("%q in %s lets %s run without asking", a.Key, file, tool)
	}
	return capgraph.Grant{Loc: a.Loc, Why: why}
}

// modeGrant says which client mode lets a tool run without asking.
func modeGrant(m *extract.ClientMode, file, tool, title string) capgraph.Grant {
	why := fmt.Sprintf("%s = %q in %s lets %s run %s without asking", m.Key, m.Value, file, title, tool)
	return capgraph.Grant{Loc: m.Loc, Why: why, Advice: m.Fix}
}

// codexShell reports whether Codex runs any shell command unasked with
// the network open: approval_policy "never" and either sandbox_mode
// "danger-full-access" or "workspace-write" with network_access = true.
// Codex sandboxes the commands its model runs otherwise (no network), and
// asks before leaving the sandbox under every other policy.
func codexShell(c *extract.Client) bool {
	if c.Name != "codex" || c.Mode == nil || c.Mode.Ask || !c.Mode.All {
		return false
	}
	return c.Sandbox == "danger-full-access" || c.Sandbox == "workspace-write" && c.SandboxNetwork
}

// codexShellTool gives the Codex agent its shell tool, unscoped: any
// command, unasked, with network (the Codex analogue of
// bypassPermissions, reported as unrestricted-execution).
func (b *builder) codexShellTool(ca *capgraph.Agent, f *extract.File) {
	c := f.Client
	l := c.SandboxLoc
	if !l.Valid() {
		l = c.Mode.Loc
	}
	t := &extract.Tool{ID: f.Path + "#shell", Name: "shell", Framework: "codex", Kind: extract.ToolBuiltin, Loc: l, NameLoc: l,
		Extra: map[extract.ExtraKey]string{extract.ExtraShell: "unscoped"}}
	why := fmt.Sprintf("Codex's shell tool with %s = %q and sandbox_mode = %q in %s runs any command, with network, without asking", c.Mode.Key, c.Mode.Value, c.Sandbox, f.Path)
	node := b.addResolved(t, effects.AnyCommand(why, l))
	fix := `set approval_policy = "on-request" and sandbox_mode = "workspace-write" (network_access off) in .codex/config.toml`
	b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: node.ID, Loc: l, Grants: []capgraph.Grant{{Loc: l, Why: why, Advice: fix}}})
}
