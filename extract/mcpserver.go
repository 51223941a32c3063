package extract

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract/syntax"

	"github.com/acg-dev/acg/internal/secret"
)

// MCP servers in code: FastMCP v1 (mcp.server.fastmcp), the SDK v2
// MCPServer (mcp.server.mcpserver), the standalone fastmcp package and the
// low-level Server with list_tools/call_tool. A server is not an agent: its
// tools become agents' tools when a client (a config entry, an
// MCPServerStdio in code) starts it. Tool annotations are recorded as
// declared hints (decided_by annotation, below the code's own evidence);
// ctx.elicit() before an action is an approval (see isGateCall).

func init() { treeAdapters = append(treeAdapters, mcpServers) }

// MCPServer is an MCP server: defined in code (Tools set) or started by a
// client (Launch set).
type MCPServer struct {
	ID   string
	Name string // config key, FastMCP("name"), MCPServerStdio(name=...)
	// Loc spans the config entry or the constructor call; NameLoc is the
	// config key (or the call).
	Loc, NameLoc Loc
	Framework    string
	Var          string // the variable a server in code is assigned to
	// Tools defined in code, in source order (also in File.Tools).
	Tools []*Tool
	// Launch says how a client starts or reaches the server.
	Launch *Launch
	// Approvals a client puts before the server's tools (require_approval).
	Approvals []*Approval
	// Allowed and Blocked filter the tools a client exposes (tool_filter);
	// nil Allowed means every tool.
	Allowed, Blocked []string
	// Ctor is the call that builds the server object in code.
	Ctor *Expr
	// AutoApprove is a config entry that lets a client run some or all of
	// the server's tools without asking (Cline autoApprove, Roo
	// alwaysAllow, Gemini trust).
	AutoApprove *AutoApprove
	// Modes are client settings that decide, tool by tool, whether the
	// client asks (Codex approval_mode), most specific first: the first
	// that covers a tool decides, before AutoApprove and the client's.
	Modes []*ClientMode
}

// AutoApprove is a setting that removes a client's confirmation before
// tool calls.
type AutoApprove struct {
	Loc Loc
	// Key is the setting as written ("autoApprove", "chat.tools.global.autoApprove").
	Key string
	// All is set when every tool runs without asking; else Tools names them.
	All   bool
	Tools []string
}

// Covers reports whether the setting lets a tool (by the server's own
// name for it) run without asking. A tool standing for every tool of an
// unknown server ("*") is covered by any list: some of them may be.
func (a *AutoApprove) Covers(raw string) bool {
	if a == nil {
		return false
	}
	if a.All || raw == "*" && len(a.Tools) > 0 {
		return true
	}
	for _, t := range a.Tools {
		if t == raw || t == "*" {
			return true
		}
	}
	return false
}

// Launch is how a client starts or reaches a server. It keeps only what
// resolution needs and never a secret: environment variables and headers
// by name (values only when they look like boolean switches), arguments
// with credentials redacted, URLs without credentials or query values.
type Launch struct {
	Transport string // stdio, http, sse, streamable-http
	Command   string
	Args      []string
	URL       string
	// Switches are boolean settings a server may read, keyed "env:NAME",
	// "header:NAME", "query:NAME" (e.g. env:GITHUB_READ_ONLY = "1").
	Switches   map[string]string
	EnvKeys    []string
	HeaderKeys []string
	// Dir is the working directory the config gives (cwd, --directory).
	Dir string
}

// Describe names the launch for messages: the command and the first
// argument that is not a flag, or the URL's host. Nothing secret.
func (l *Launch) Describe() string {
	if l == nil {
		return "no command or url"
	}
	if l.URL != "" {
		if u, err := url.Parse(l.URL); err == nil && u.Host != "" {
			return u.Host
		}
		return "a remote url"
	}
	out := lastPathElem(l.Command)
	for _, a := range l.Args {
		if a != "" && !strings.HasPrefix(a, "-") && a != redacted {
			return out + " " + lastPathElem(a)
		}
	}
	return out
}

func lastPathElem(s string) string {
	if strings.Contains(s, "://") {
		return s
	}
	if i := strings.LastIndexAny(s, `/\`); i >= 0 && !strings.HasPrefix(s, "@") {
		return s[i+1:]
	}
	return s
}

const redacted = "<redacted>"

// Which names and values are credentials is package secret's one
// detector; secretShape adds the bare prefixes of known tokens, which in
// an argument of their own are enough to drop it whatever follows.
var (
	secretShape = regexp.MustCompile(`^(gh[pousr]_|github_pat_|sk-|sk_live_|rk_live_|xox[abpr]-|AKIA|ASIA|glpat-|ya29\.|AIza|eyJ)`)
	envAssign   = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)
)

func boolish(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "0", "true", "false", "yes", "no", "on", "off":
		return true
	}
	return false
}

// newLaunch builds a Launch from config values, dropping every secret.
// env and headers map names to raw values; only boolean values survive.
func newLaunch(transport, command string, args []string, rawURL string, env, headers map[string]string) *Launch {
	// A command string can hold a whole command line with its credentials.
	l := &Launch{Transport: transport, Command: secret.Mask(command), URL: cleanURL(rawURL), Switches: map[string]string{}}
	if l.URL != "" {
		addQuerySwitches(l.Switches, rawURL)
	}
	redactNext := false
	envNext := false
	for _, a := range args {
		switch {
		case redactNext && !strings.HasPrefix(a, "-"):
			l.Args = append(l.Args, redacted)
			redactNext = false
			continue
		case envNext:
			envNext = false
			if m := envAssign.FindStringSubmatch(a); m != nil {
				if boolish(m[2]) {
					l.Switches["env:"+m[1]] = m[2]
					l.Args = append(l.Args, a)
				} else {
					l.Args = append(l.Args, m[1]+"="+redacted)
				}
				l.EnvKeys = append(l.EnvKeys, m[1])
				continue
			}
		}
		redactNext = false
		if a == "-e" || a == "--env" {
			envNext = true
			l.Args = append(l.Args, a)
			continue
		}
		if strings.HasPrefix(a, "-") {
			name, val, hasVal := strings.Cut(a, "=")
			if secret.NamesSecret(name) {
				if hasVal {
					l.Args = append(l.Args, name+"="+redacted)
				} else {
					l.Args = append(l.Args, a)
					redactNext = true
				}
				continue
			}
			if hasVal && (strings.Contains(val, "://") || secretShape.MatchString(val)) {
				l.Args = append(l.Args, name+"="+cleanArg(val))
				continue
			}
			l.Args = append(l.Args, a)
			continue
		}
		if m := envAssign.FindStringSubmatch(a); m != nil && !strings.Contains(m[1], "/") {
			if boolish(m[2]) {
				l.Args = append(l.Args, a)
			} else {
				l.Args = append(l.Args, m[1]+"="+redacted)
			}
			continue
		}
		l.Args = append(l.Args, cleanArg(a))
	}
	for k, v := range env {
		l.EnvKeys = append(l.EnvKeys, k)
		if boolish(v) {
			l.Switches["env:"+k] = v
		}
	}
	for k, v := range headers {
		l.HeaderKeys = append(l.HeaderKeys, k)
		if boolish(v) {
			l.Switches["header:"+k] = v
		}
	}
	sort.Strings(l.EnvKeys)
	sort.Strings(l.HeaderKeys)
	return l
}

// cleanArg redacts an argument that is a credential or carries one.
func cleanArg(a string) string {
	if strings.Contains(a, "://") {
		return cleanURL(a)
	}
	if secretShape.MatchString(a) || looksLikeKey(a) {
		return redacted
	}
	return secret.Mask(a) // a credential inside a longer argument
}

// looksLikeKey: a long run of key characters mixing letters and digits,
// with no path or package separators. Package names, paths and versions
// do not look like this; API keys and tokens do.
func looksLikeKey(a string) bool {
	if len(a) < 24 || strings.ContainsAny(a, "/.@:\\ ") {
		return false
	}
	letters, digits := 0, 0
	for _, r := range a {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters++
		case r == '-' || r == '_' || r == '+' || r == '=':
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}

// cleanURL keeps scheme, host and path: credentials, query values and
// fragments can hold tokens. Boolean query values are kept as switches.
func cleanURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		if strings.Contains(raw, "${") {
			return raw // a variable reference, never expanded
		}
		return redacted
	}
	out := u.Scheme + "://" + u.Host + u.EscapedPath()
	if q := u.Query(); len(q) > 0 {
		var keep []string
		for k, vs := range q {
			if len(vs) == 1 && boolish(vs[0]) {
				keep = append(keep, url.QueryEscape(k)+"="+url.QueryEscape(vs[0]))
			}
		}
		sort.Strings(keep)
		if len(keep) > 0 {
			out += "?" + strings.Join(keep, "&")
		}
	}
	return out
}

func addQuerySwitches(sw map[string]string, raw string) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return
	}
	for k, vs := range u.Query() {
		if len(vs) == 1 && boolish(vs[0]) {
			sw["query:"+k] = vs[0]
		}
	}
}

// serverID makes a server id that cannot collide with tool or agent ids.
func serverID(file, name string) string { return file + "#server:" + name }

// ---- servers in code ----

var fastMCPTops = []string{"mcp", "fastmcp"}

func isServerCtor(q string) (framework string, lowLevel bool, ok bool) {
	switch {
	case qualIs(q, "FastMCP", "fastmcp"):
		return "fastmcp", false, true
	case qualIs(q, "FastMCP", "mcp"), qualIs(q, "MCPServer", "mcp"):
		return "mcp", false, true
	case qualIs(q, "Server", "mcp") && !strings.Contains(q, "fastmcp"):
		return "mcp", true, true
	}
	return "", false, false
}

func mcpServers(f *File, root *syntax.Node, src []byte) {
	byVar := map[string]*MCPServer{}
	lowLevel := map[string]bool{}
	for _, c := range f.calls() {
		fw, low, ok := isServerCtor(c.Qual)
		if !ok || c.HeadKind != HeadImport {
			continue
		}
		s := &MCPServer{Framework: fw, Var: c.AssignedTo, Loc: c.Loc, NameLoc: c.Loc, Ctor: c.Expr}
		if n, ok := StrArg(c.Expr, 0, "name"); ok && n != "" {
			s.Name = n
		} else if c.AssignedTo != "" {
			s.Name = c.AssignedTo
		} else {
			s.Name = "mcp-server"
		}
		s.ID = serverID(f.Path, s.Name)
		for f.serverByID(s.ID) != nil {
			s.ID += "~"
		}
		f.Servers = append(f.Servers, s)
		if c.AssignedTo != "" {
			byVar[c.AssignedTo] = s
			lowLevel[c.AssignedTo] = low
		}
		if low {
			// v2 low-level: Server("name", on_list_tools=fn, on_call_tool=fn).
			list := funcDef(c.Expr.Scope, c.Expr.Kwarg("on_list_tools").nameOrEmpty())
			call := funcDef(c.Expr.Scope, c.Expr.Kwarg("on_call_tool").nameOrEmpty())
			lowLevelTools(f, s, list, call, root, src)
		}
	}
	if len(byVar) == 0 {
		return
	}
	var lists, handlers = map[*MCPServer]*Func{}, map[*MCPServer]*Func{}
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			name := d.Name
			if d.Kind != ExprName && d.Kind != ExprCall {
				continue
			}
			v, m, ok := strings.Cut(name, ".")
			s := byVar[v]
			if !ok || s == nil {
				continue
			}
			switch m {
			case "tool":
				if lowLevel[v] {
					continue
				}
				t := &Tool{Name: fn.Name, Symbol: fn.Name, Framework: s.Framework, Kind: ToolFunc, Func: fn,
					Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc, Server: s.ID}
				if d.Kind == ExprCall {
					if n, ok := StrArg(d, 0, "name"); ok && n != "" {
						t.Name = n
					}
					annotationHints(t, d.Kwarg("annotations"))
				}
				f.addTool(t)
				s.Tools = append(s.Tools, t)
			case "list_tools":
				lists[s] = fn
			case "call_tool":
				handlers[s] = fn
			}
		}
	}
	for _, s := range f.Servers {
		if lists[s] != nil || handlers[s] != nil {
			lowLevelTools(f, s, lists[s], handlers[s], root, src)
		}
	}
	// mcp.add_tool(fn, name=..., annotations=...)
	for _, c := range f.calls() {
		e := c.Expr
		v, m, ok := strings.Cut(e.Name, ".")
		s := byVar[v]
		if !ok || s == nil || m != "add_tool" || e.Recv != nil {
			continue
		}
		fref := e.Arg(0, "fn")
		if fref == nil {
			continue
		}
		name := lastDot(fref.Name)
		if n, ok := StrArg(e, 1, "name"); ok && n != "" {
			name = n
		}
		t := &Tool{Name: name, Symbol: lastDot(fref.Name), Framework: s.Framework, Kind: ToolFunc, FuncRef: fref,
			Ctor: e, Loc: c.Loc, NameLoc: c.Loc, Server: s.ID}
		if fref.Kind == ExprName && !strings.Contains(fref.Name, ".") {
			t.Func = funcDef(fref.Scope, fref.Name)
			if t.Func != nil {
				t.Loc, t.NameLoc = t.Func.Loc, t.Func.NameLoc
			}
		}
		annotationHints(t, e.Kwarg("annotations"))
		f.addTool(t)
		s.Tools = append(s.Tools, t)
	}
}

func (e *Expr) nameOrEmpty() string {
	if e == nil || e.Kind != ExprName {
		return ""
	}
	return e.Name
}

func (f *File) serverByID(id string) *MCPServer {
	for _, s := range f.Servers {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// lowLevelTools reads a low-level server: tool names from the Tool(name=…)
// objects list_tools returns; effects from the call_tool handler, per
// `if name == "x":` branch when the handler dispatches that way, else the
// whole handler for every tool (an over-approximation: never a missed label).
func lowLevelTools(f *File, s *MCPServer, list, handler *Func, root *syntax.Node, src []byte) {
	type decl struct {
		name string
		loc  Loc
		ann  *Expr
	}
	var decls []decl
	if list != nil {
		for _, c := range list.Calls {
			if c.Expr == nil || !qualIs(c.Qual, "Tool", "mcp") {
				continue
			}
			if n, ok := StrArg(c.Expr, -1, "name"); ok && n != "" {
				decls = append(decls, decl{n, c.Loc, c.Expr.Kwarg("annotations")})
			}
		}
	}
	var branches map[string]Loc
	if handler != nil {
		nameParam := ""
		for _, p := range handler.Params {
			if !p.Injected {
				nameParam = p.Name
				break
			}
		}
		if nameParam != "" {
			branches = nameBranches(root, src, f, handler, nameParam)
		}
		// Handler branches name tools the list does not (a list built in a
		// loop, or from an enum): they are tools too.
		var extra []string
		for n := range branches {
			found := false
			for _, d := range decls {
				found = found || d.name == n
			}
			if !found {
				extra = append(extra, n)
			}
		}
		sort.Strings(extra)
		for _, n := range extra {
			decls = append(decls, decl{n, branches[n], nil})
		}
	}
	if len(decls) == 0 && handler != nil {
		// Tool names unknown: one tool standing for the whole handler.
		decls = append(decls, decl{s.Name + ":*", handler.NameLoc, nil})
	}
	for _, d := range decls {
		t := &Tool{Name: d.name, Symbol: s.Name + "." + d.name, Framework: s.Framework, Kind: ToolFunc, Func: handler,
			Loc: d.loc, NameLoc: d.loc, Server: s.ID}
		if b, ok := branches[d.name]; ok {
			t.Branch = b
		}
		if handler == nil {
			t.Kind, t.Func = ToolMCP, nil
		}
		annotationHints(t, d.ann)
		f.addTool(t)
		s.Tools = append(s.Tools, t)
	}
}

// annotationHints records MCP tool annotations as declared hints. Only
// hints that announce an effect are kept (destructiveHint, readOnlyHint
// False, openWorldHint): a "safe" hint never removes a label.
func annotationHints(t *Tool, ann *Expr) {
	ann = Deref(ann)
	if ann == nil {
		return
	}
	get := func(names ...string) (bool, bool) {
		for _, n := range names {
			var v *Expr
			switch ann.Kind {
			case ExprCall:
				v = ann.Kwarg(n)
			case ExprDict:
				for i, k := range ann.Keys {
					if s, ok := k.StrValue(); ok && s == n {
						v = ann.Elems[i]
					}
				}
			}
			if b, known := Deref(v).Truthy(); v != nil && known {
				return b, true
			}
		}
		return false, false
	}
	var said []string
	declare := func(why string, labels ...string) {
		if t.Declared == nil {
			t.Declared = map[string]bool{}
		}
		for _, l := range labels {
			t.Declared[l] = true
		}
		said = append(said, why)
	}
	if v, ok := get("destructiveHint", "destructive_hint"); ok && v {
		declare("destructiveHint=True", "writes_state", "irreversible")
	}
	if v, ok := get("readOnlyHint", "read_only_hint"); ok && !v {
		declare("readOnlyHint=False", "writes_state")
	}
	if v, ok := get("openWorldHint", "open_world_hint"); ok && v {
		declare("openWorldHint=True", "untrusted_input", "network_egress")
	}
	if len(said) > 0 {
		if t.Extra == nil {
			t.Extra = map[string]string{}
		}
		t.Extra["decided_by"] = "annotation"
		t.Extra["detail"] = "MCP tool annotation " + strings.Join(said, ", ")
	}
}

// nameBranches finds, in a dispatching function, the blocks that run for
// one tool name: `if name == "x":` / `elif name in ("x", "y"):` and
// `match name: case "x":`.
func nameBranches(root *syntax.Node, src []byte, f *File, fn *Func, param string) map[string]Loc {
	fnNode := descendantAt(root, f, fn.Loc)
	if fnNode == nil {
		return nil
	}
	out := map[string]Loc{}
	b := &builder{src: src, f: f}
	isParam := func(s string) bool { return s == param || s == param+".name" }
	var visit func(n *syntax.Node, depth int)
	visit = func(n *syntax.Node, depth int) {
		if depth > 200 {
			return
		}
		switch n.Type() {
		case "if_statement", "elif_clause":
			if names := comparedNamesBy(n.ChildByFieldName("condition"), src, isParam); len(names) > 0 {
				if body := n.ChildByFieldName("consequence"); body != nil {
					for _, nm := range names {
						if _, dup := out[nm]; !dup {
							out[nm] = b.loc(body)
						}
					}
				}
			}
		case "match_statement":
			if subj := n.ChildByFieldName("subject"); subj != nil && isParam(subj.Content(src)) {
				for _, c := range named(n.ChildByFieldName("body")) {
					if c.Type() != "case_clause" {
						continue
					}
					body := c.ChildByFieldName("consequence")
					for _, pat := range named(c) {
						if pat.Type() != "case_pattern" {
							continue
						}
						for _, nm := range stringLits(pat, src) {
							if _, dup := out[nm]; !dup && body != nil {
								out[nm] = b.loc(body)
							}
						}
					}
				}
			}
		}
		for _, c := range named(n) {
			if c.Type() == "function_definition" || c.Type() == "class_definition" {
				continue
			}
			visit(c, depth+1)
		}
	}
	if body := fnNode.ChildByFieldName("body"); body != nil {
		visit(body, 0)
	}
	return out
}

// comparedNamesBy reads `p == "x"`, `"x" == p`, `p in ("x", "y")` (also
// through `or`) where p is an expression accept says is the tool's name.
func comparedNamesBy(cond *syntax.Node, src []byte, accept func(string) bool) []string {
	if cond == nil {
		return nil
	}
	switch cond.Type() {
	case "parenthesized_expression":
		if ns := named(cond); len(ns) == 1 {
			return comparedNamesBy(ns[0], src, accept)
		}
	case "boolean_operator":
		if op := cond.ChildByFieldName("operator"); op != nil && op.Content(src) == "or" {
			l := comparedNamesBy(cond.ChildByFieldName("left"), src, accept)
			r := comparedNamesBy(cond.ChildByFieldName("right"), src, accept)
			if l != nil && r != nil {
				return append(l, r...)
			}
		}
	case "comparison_operator":
		ns := named(cond)
		if len(ns) != 2 {
			return nil
		}
		op := ""
		for i := 0; i < int(cond.ChildCount()); i++ {
			if c := cond.Child(i); !c.IsNamed() {
				op += c.Content(src)
			}
		}
		l, r := ns[0], ns[1]
		is := func(n *syntax.Node) bool { return accept(n.Content(src)) }
		switch op {
		case "==":
			if is(l) {
				return stringLits(r, src)
			}
			if is(r) {
				return stringLits(l, src)
			}
		case "in":
			if is(l) {
				return stringLits(r, src)
			}
		}
	}
	return nil
}

// stringLits returns the plain string literals in a node (a literal, a
// tuple/list/set of them, an or-pattern of them).
func stringLits(n *syntax.Node, src []byte) []string {
	var out []string
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		if n.Type() == "string" {
			if s, ok := plainString(n, src); ok {
				out = append(out, s)
			}
			return
		}
		switch n.Type() {
		case "tuple", "list", "set", "case_pattern", "union_pattern", "parenthesized_expression", "expression_list", "tuple_pattern", "list_pattern":
			for _, c := range named(n) {
				walk(c)
			}
		}
	}
	walk(n)
	return out
}

// plainString decodes a string literal without interpolation or escapes.
func plainString(n *syntax.Node, src []byte) (string, bool) {
	text := n.Content(src)
	i := strings.IndexAny(text, `"'`)
	if i < 0 || strings.ContainsAny(strings.ToLower(text[:i]), "fb") {
		return "", false
	}
	q := text[i:]
	for _, d := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(q, d) && strings.HasSuffix(q, d) && len(q) >= 2*len(d) {
			body := q[len(d) : len(q)-len(d)]
			if strings.Contains(body, `\`) {
				return "", false
			}
			return body, true
		}
	}
	return "", false
}

// descendantAt returns the smallest named node spanning a location.
func descendantAt(root *syntax.Node, f *File, l Loc) *syntax.Node {
	start, end := uint32(l.Start.Byte), uint32(l.End.Byte)
	n := root
	for {
		var next *syntax.Node
		for _, k := range n.NamedChildren() {
			if k.StartByte() <= start && k.EndByte() >= end {
				next = k
				break
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}
