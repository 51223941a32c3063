package typescript

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// MCP clients of OpenAI Agents JS: new MCPServerStdio({ command, args } |
// { fullCommand }), new MCPServerStreamableHttp({ url }) and new
// MCPServerSSE({ url }), passed to new Agent({ mcpServers: [...] }), with
// toolFilter: createMCPToolStaticFilter({ allowed, blocked }) (or the
// object it builds). Each becomes a server with a Launch, resolved like a
// config entry (the Python SDK's twin is extract/python/mcpclient.go).
//
// A launch written as `command: process.execPath, args:
// [require.resolve("pkg/dist/index.js"), ...]` runs that package's entry
// with node: the resolved specifier is the argument, so the catalog knows
// the server by its package as for `npx pkg`.

func init() { adapters = append(adapters, mcpClients, mastraMCPClients) }

var mastraMCPModules = []string{"@mastra/mcp"}

// mastraMCPClients reads Mastra's new MCPClient({ servers: { name: {
// command, args, env } | { url } } }): each entry is a server, like an
// entry of a client config file. They share the constructor call, through
// which `await mcp.getTools()` (or listTools()) finds them. A computed
// servers object leaves getTools() unknown (fail closed).
func mastraMCPClients(f *extract.File) {
	if !imports(f, mastraMCPModules...) {
		return
	}
	for _, c := range f.Calls() {
		if !memberOf(c.Qual, "MCPClient", mastraMCPModules...) && !memberOf(c.Qual, "MCPConfiguration", mastraMCPModules...) {
			continue
		}
		servers := extract.Deref(objProp(c.Expr.Arg(0, ""), "servers"))
		if servers == nil || servers.Kind != extract.ExprDict || servers.Spread {
			continue
		}
		for i, k := range servers.Keys {
			name, ok := k.StrValue()
			if !ok || i >= len(servers.Elems) {
				continue
			}
			entry := extract.Deref(servers.Elems[i])
			command, args := launchCommand(entry)
			url := ""
			if u := extract.Deref(objProp(entry, "url")); u != nil {
				// url: new URL("https://...") or a string
				if u.Kind == extract.ExprCall && len(u.Args) > 0 {
					u = extract.Deref(u.Args[0])
				}
				url, _ = u.StrValue()
			}
			transport := "stdio"
			if command == "" && objProp(entry, "url") != nil {
				transport = "http"
			}
			s := &extract.MCPServer{Framework: extract.FrameworkMastra, Var: c.AssignedTo, Loc: servers.Elems[i].Loc, NameLoc: k.Loc, Ctor: c.Expr, Name: name}
			s.ID = f.UniqueServerID(name)
			s.Launch = extract.NewLaunch(transport, command, args, url, envKeys(objProp(entry, "env")), nil)
			f.Servers = append(f.Servers, s)
		}
	}
}

func mcpClients(f *extract.File) {
	if !openaiFile(f) {
		return
	}
	for _, c := range f.Calls() {
		transport := ""
		switch {
		case memberOf(c.Qual, "MCPServerStdio", openaiModules...):
			transport = "stdio"
		case memberOf(c.Qual, "MCPServerStreamableHttp", openaiModules...):
			transport = "http"
		case memberOf(c.Qual, "MCPServerSSE", openaiModules...):
			transport = "sse"
		default:
			continue
		}
		opts := c.Expr.Arg(0, "")
		name, _ := objStr(opts, "name")
		s := &extract.MCPServer{Framework: extract.FrameworkOpenAIAgents, Var: c.AssignedTo, Loc: c.Loc, NameLoc: c.Loc, Ctor: c.Expr, Name: name}
		if s.Name == "" {
			s.Name = fwVarName(c, extract.LastDot(c.Qual))
		}
		s.ID = f.UniqueServerID(s.Name)
		command, args := launchCommand(opts)
		url, _ := objStr(opts, "url")
		s.Launch = extract.NewLaunch(transport, command, args, url, envKeys(objProp(opts, "env")), nil)
		s.Launch.Dir, _ = objStr(opts, "cwd")
		staticFilter(s, objProp(opts, "toolFilter"))
		f.Servers = append(f.Servers, s)
	}
}

// launchCommand reads command and args, or a fullCommand line (its
// constant words: a template's words before the first substitution).
func launchCommand(opts *extract.Expr) (string, []string) {
	if fc := extract.Deref(objProp(opts, "fullCommand")); fc != nil {
		words := strings.Fields(fc.Str)
		if fc.Kind == extract.ExprFString && !strings.HasSuffix(fc.Str, " ") && len(words) > 0 {
			words = words[:len(words)-1] // a word the substitution continues
		}
		if len(words) == 0 {
			return "", nil
		}
		return words[0], words[1:]
	}
	command, _ := objStr(opts, "command")
	if cmd := extract.Deref(objProp(opts, "command")); command == "" && cmd != nil && cmd.Kind == extract.ExprName && cmd.Name == "process.execPath" {
		command = "node" // the running node binary
	}
	var args []string
	if l := extract.Deref(objProp(opts, "args")); l != nil && l.Kind == extract.ExprList {
		for _, el := range l.Elems {
			el = extract.Deref(el)
			if s, ok := el.StrValue(); ok {
				args = append(args, s)
			} else if spec, ok := resolvedSpecifier(el); ok {
				args = append(args, spec)
			}
		}
	}
	return command, args
}

// resolvedSpecifier is the package a require.resolve("pkg/dist/x.js")
// call names: a file inside a package runs that package's code.
func resolvedSpecifier(e *extract.Expr) (string, bool) {
	if e == nil || e.Kind != extract.ExprCall || !strings.HasSuffix(e.Name, "require.resolve") && e.Name != "resolve" {
		return "", false
	}
	spec, ok := extract.Deref(e.Arg(0, "")).StrValue()
	if !ok || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") {
		return "", false
	}
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1], true
	}
	return parts[0], true
}

// envKeys reads an env object literal's string values.
func envKeys(d *extract.Expr) map[string]string {
	d = extract.Deref(d)
	if d == nil || d.Kind != extract.ExprDict {
		return nil
	}
	out := map[string]string{}
	for i, k := range d.Keys {
		if s, ok := k.StrValue(); ok && i < len(d.Elems) {
			v, _ := extract.Deref(d.Elems[i]).StrValue()
			out[s] = v
		}
	}
	return out
}

// staticFilter reads createMCPToolStaticFilter({ allowed, blocked }) or
// the { allowedToolNames, blockedToolNames } object it returns. A filter
// acg cannot read leaves every tool exposed (fail closed).
func staticFilter(s *extract.MCPServer, v *extract.Expr) {
	d := extract.Deref(v)
	if d == nil {
		return
	}
	obj := d
	if d.Kind == extract.ExprCall {
		if !strings.HasSuffix(d.Name, "createMCPToolStaticFilter") {
			return // a function filter decides per call
		}
		obj = d.Arg(0, "")
	}
	for _, k := range []string{"allowed", "allowedToolNames"} {
		if names := extract.Strings(objProp(obj, k)); names != nil {
			s.Allowed = names
		}
	}
	for _, k := range []string{"blocked", "blockedToolNames"} {
		if b := objProp(obj, k); b != nil {
			s.Blocked = extract.Strings(b)
		}
	}
}
