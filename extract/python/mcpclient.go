package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// MCP clients in code: the OpenAI Agents SDK's MCPServerStdio,
// MCPServerSse and MCPServerStreamableHttp (passed to Agent(mcp_servers=…),
// with require_approval and tool_filter), and crewai_tools'
// MCPServerAdapter(params) whose context yields the server's tools, and
// PydanticAI's MCPServerStdio(command, args, env=…), MCPServerSSE(url),
// MCPServerHTTP(url) and MCPServerStreamableHTTP(url) (pydantic_ai.mcp,
// passed to Agent(toolsets=…) or the older mcp_servers=…), which take the
// launch as arguments of the call itself. Each becomes a server with a
// Launch, resolved like a config entry.

func init() { adapters = append(adapters, mcpClients) }

func mcpClients(f *extract.File) {
	for _, c := range f.Calls() {
		if c.HeadKind != extract.HeadImport {
			continue
		}
		e := c.Expr
		var params *extract.Expr
		transport := ""
		switch {
		case extract.QualIs(c.Qual, "MCPServerStdio", "agents"):
			params, transport = e.Arg(0, "params"), "stdio"
		case extract.QualIs(c.Qual, "MCPServerSse", "agents"):
			params, transport = e.Arg(0, "params"), "sse"
		case extract.QualIs(c.Qual, "MCPServerStreamableHttp", "agents"):
			params, transport = e.Arg(0, "params"), "http"
		case extract.QualIs(c.Qual, "MultiServerMCPClient", "langchain_mcp_adapters"):
			multiServerClient(f, c)
			continue
		case extract.QualIs(c.Qual, "MCPServerStdio", "pydantic_ai"):
			pydanticServer(f, c, "stdio", "command", "args")
			continue
		case extract.QualIs(c.Qual, "MCPServerSSE", "pydantic_ai"):
			pydanticServer(f, c, "sse", "url")
			continue
		case extract.QualIs(c.Qual, "MCPServerHTTP", "pydantic_ai"), extract.QualIs(c.Qual, "MCPServerStreamableHTTP", "pydantic_ai"):
			pydanticServer(f, c, "http", "url")
			continue
		case extract.QualIs(c.Qual, "MCPClient", "smolagents"):
			smolClient(f, c)
			continue
		case extract.QualIs(c.Qual, "MCPServerAdapter", "crewai_tools"):
			params, transport = e.Arg(0, "serverparams"), "stdio"
			if params == nil {
				params = e.Arg(0, "server_params")
			}
		default:
			continue
		}
		name, _ := extract.StrArg(e, -1, "name")
		s := clientServer(f, c, frameworkOfClient(c.Qual), name)
		s.Launch = launchFromParams(params, transport)
		clientApprovals(s, e.Kwarg("require_approval"))
		clientFilter(s, e.Kwarg("tool_filter"))
		f.Servers = append(f.Servers, s)
	}
}

// multiServerClient reads langchain_mcp_adapters'
// MultiServerMCPClient({name: {"url"|"command", "args", "transport"}}):
// each entry is a server, like an entry of a client config file. They
// share the constructor call, through which client.get_tools() finds them.
func multiServerClient(f *extract.File, c *extract.Call) {
	e := c.Expr
	conns := extract.Deref(e.Arg(0, "connections"))
	if conns == nil || conns.Kind != extract.ExprDict {
		return // a computed dict: get_tools() stays unknown (fail closed)
	}
	for i, k := range conns.Keys {
		name, ok := k.StrValue()
		if !ok || i >= len(conns.Elems) {
			continue
		}
		entry := extract.Deref(conns.Elems[i])
		transport := ""
		if entry != nil && entry.Kind == extract.ExprCall {
			transport, _ = extract.Deref(entry.Kwarg("transport")).StrValue()
		}
		if entry != nil && entry.Kind == extract.ExprDict {
			for j, ek := range entry.Keys {
				if ks, _ := ek.StrValue(); ks == "transport" {
					transport, _ = extract.Deref(entry.Elems[j]).StrValue()
				}
			}
		}
		switch transport {
		case "streamable_http", "streamable-http", "http":
			transport = "http"
		case "sse", "websocket":
		default:
			transport = "stdio"
		}
		s := &extract.MCPServer{Framework: extract.FrameworkLangChain, Var: c.AssignedTo, Loc: conns.Elems[i].Loc, NameLoc: k.Loc, Ctor: e, Name: name}
		s.ID = f.UniqueServerID(name)
		s.Launch = launchFromParams(entry, transport)
		f.Servers = append(f.Servers, s)
	}
}

// smolClient reads smolagents' MCPClient(server_parameters) (1.x): one
// server (StdioServerParameters(...), or a dict with "url" and
// "transport") or a list of them, whose tools client.get_tools() and
// `with MCPClient(...) as tools` give. Each becomes a server sharing the
// constructor call, as MultiServerMCPClient's entries do.
func smolClient(f *extract.File, c *extract.Call) {
	params := extract.Deref(c.Expr.Arg(0, "server_parameters"))
	list := []*extract.Expr{params}
	if params != nil && params.Kind == extract.ExprList {
		list = params.Elems
	}
	for i, p := range list {
		p = extract.Deref(p)
		transport := "stdio"
		if p != nil && p.Kind == extract.ExprDict {
			transport = "http" // a dict names a URL; its transport says which kind
			if t, _ := extract.Deref(p.Entry("transport")).StrValue(); t == "sse" {
				transport = "sse"
			}
		}
		name := c.AssignedTo
		if len(list) > 1 || name == "" {
			name = "MCPClient@" + itoaLine(int(c.Loc.Start.Line)) + "#" + itoaLine(i+1)
		}
		s := clientServer(f, c, extract.FrameworkSmolagents, name)
		s.Launch = launchFromParams(p, transport)
		f.Servers = append(f.Servers, s)
	}
}

// clientServer starts the server an MCP client call in code connects to:
// named by its name argument, else the variable it is assigned to, else its
// class and line, with an id unique in the file.
func clientServer(f *extract.File, c *extract.Call, framework extract.Framework, name string) *extract.MCPServer {
	s := &extract.MCPServer{Framework: framework, Var: c.AssignedTo, Loc: c.Loc, NameLoc: c.Loc, Ctor: c.Expr, Name: name}
	if s.Name == "" {
		s.Name = c.AssignedTo
	}
	if s.Name == "" {
		s.Name = extract.LastDot(c.Qual) + "@" + itoaLine(int(c.Loc.Start.Line))
	}
	s.ID = f.UniqueServerID(s.Name)
	return s
}

func frameworkOfClient(q string) extract.Framework {
	if strings.HasPrefix(q, "crewai") {
		return "crewai"
	}
	return "openai-agents"
}

func itoaLine(n int) string {
	if n <= 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// pydanticServer reads a PydanticAI MCP client: the launch is the call's own
// arguments (positional ones named by pos, in order), its name the id=
// argument or the variable. PydanticAI has no approval on the client
// itself, so none is read.
func pydanticServer(f *extract.File, c *extract.Call, transport string, pos ...string) {
	e := c.Expr
	name, _ := extract.StrArg(e, -1, "id")
	s := clientServer(f, c, extract.FrameworkPydanticAI, name)
	s.Launch = launchFrom(func(k string) *extract.Expr {
		for i, p := range pos {
			if p == k {
				return e.Arg(i, k)
			}
		}
		return e.Kwarg(k)
	}, transport)
	f.Servers = append(f.Servers, s)
}

// launchFromParams reads a params dict ({"command", "args", "url", "env",
// "headers", "cwd"}) or StdioServerParameters(command=, args=, env=). Only
// literal parts are kept; a computed command leaves the server unknown.
func launchFromParams(p *extract.Expr, transport string) *extract.Launch {
	p = extract.Deref(p)
	if p != nil && p.Kind == extract.ExprCall && strings.HasSuffix(p.Name, "SseServerParameters") {
		transport = "sse"
	}
	return launchFrom(func(k string) *extract.Expr {
		if p == nil {
			return nil
		}
		switch p.Kind {
		case extract.ExprDict:
			for i, key := range p.Keys {
				if s, ok := key.StrValue(); ok && s == k {
					return p.Elems[i]
				}
			}
		case extract.ExprCall:
			return p.Kwarg(k)
		}
		return nil
	}, transport)
}

// launchFrom builds a Launch from the launch keys as get finds them.
func launchFrom(get func(string) *extract.Expr, transport string) *extract.Launch {
	str := func(k string) string { s, _ := extract.Deref(get(k)).StrValue(); return s }
	url := str("url")
	if url == "" {
		url = urlPrefix(get("url"), 0)
	}
	keys := func(k string) map[string]string {
		d := extract.Deref(get(k))
		if d == nil || d.Kind != extract.ExprDict {
			return nil
		}
		out := map[string]string{}
		for i, key := range d.Keys {
			if s, ok := key.StrValue(); ok {
				v, _ := extract.Deref(d.Elems[i]).StrValue()
				if b, known := extract.Deref(d.Elems[i]).Truthy(); known && extract.Deref(d.Elems[i]).Kind == extract.ExprBool {
					v = map[bool]string{true: "true", false: "false"}[b]
				}
				out[s] = v
			}
		}
		return out
	}
	l := extract.NewLaunch(transport, str("command"), extract.Strings(get("args")), url, keys("env"), keys("headers"))
	l.Dir = str("cwd")
	return l
}

// urlPrefix is the constant start of a URL built at run time: an f-string
// ("https://mcp.tavily.com/mcp/?key={key}"), or what an in-tree helper
// with one return gives back. It is "" unless that start names a scheme
// and a host.
func urlPrefix(e *extract.Expr, depth int) string {
	e = extract.Deref(e)
	if e == nil || depth > 3 {
		return ""
	}
	switch e.Kind {
	case extract.ExprFString, extract.ExprConcat:
		if i := strings.Index(e.Str, "://"); i > 0 && strings.ContainsAny(e.Str[i+3:], "/?") {
			return e.Str
		}
	case extract.ExprCall:
		if e.Call == nil || e.Call.HeadKind != extract.HeadLocal || e.Scope == nil {
			return ""
		}
		if fn := extract.FuncDef(e.Scope, e.Call.Qual); fn != nil && len(fn.ReturnExprs) == 1 {
			return urlPrefix(fn.ReturnExprs[0], depth+1)
		}
	}
	return ""
}

// clientApprovals reads require_approval: "always"/True gate every tool;
// {"always": {"tool_names": [...]}} or {"tool": "always"} gate those tools.
// A callable decides per call and is not counted as a human gate.
func clientApprovals(s *extract.MCPServer, v *extract.Expr) {
	if v == nil {
		return
	}
	d := extract.Deref(v)
	if val, ok := d.StrValue(); ok {
		if val == "always" {
			s.Approvals = append(s.Approvals, &extract.Approval{Kind: "require_approval", Loc: v.Loc, All: true, Expr: v})
		}
		return
	}
	if b, known := d.Truthy(); known && d.Kind == extract.ExprBool {
		if b {
			s.Approvals = append(s.Approvals, &extract.Approval{Kind: "require_approval", Loc: v.Loc, All: true, Expr: v})
		}
		return
	}
	if d == nil || d.Kind != extract.ExprDict {
		return
	}
	ap := &extract.Approval{Kind: "require_approval", Loc: v.Loc, Expr: v}
	for i, k := range d.Keys {
		key, _ := k.StrValue()
		val := extract.Deref(d.Elems[i])
		if key == "always" && val != nil && val.Kind == extract.ExprDict {
			for j, kk := range val.Keys {
				if n, _ := kk.StrValue(); n == "tool_names" {
					ap.Tools = append(ap.Tools, extract.Strings(val.Elems[j])...)
				}
			}
			continue
		}
		if sv, _ := val.StrValue(); sv == "always" && key != "never" {
			ap.Tools = append(ap.Tools, key)
		}
	}
	if len(ap.Tools) > 0 {
		s.Approvals = append(s.Approvals, ap)
	}
}

// clientFilter reads tool_filter=create_static_tool_filter(allowed_tool_names=…,
// blocked_tool_names=…) or the same keys as a dict.
func clientFilter(s *extract.MCPServer, v *extract.Expr) {
	d := extract.Deref(v)
	if d == nil {
		return
	}
	get := func(k string) *extract.Expr {
		switch d.Kind {
		case extract.ExprCall:
			return d.Kwarg(k)
		case extract.ExprDict:
			for i, key := range d.Keys {
				if s, ok := key.StrValue(); ok && s == k {
					return d.Elems[i]
				}
			}
		}
		return nil
	}
	// A list acg cannot read leaves every tool exposed (fail closed).
	if names := extract.Strings(get("allowed_tool_names")); names != nil {
		s.Allowed = names
	}
	if b := get("blocked_tool_names"); b != nil {
		s.Blocked = extract.Strings(b)
	}
}
