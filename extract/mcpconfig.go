package extract

import (
	"path"
	"regexp"
	"strings"

	"github.com/acg-dev/acg/internal/secret"
)

// MCP client configs: Claude Desktop (claude_desktop_config.json), Claude
// Code (.mcp.json), VS Code (.vscode/mcp.json: "servers" plus "inputs"),
// Cursor (.cursor/mcp.json), Cline (cline_mcp_settings.json) and Roo Code
// (mcp_settings.json, .roo/mcp.json). Each file is one client; its servers are
// resolved to tools later (code in the tree, the catalog, or fail closed).
// Values of env, headers and ${VAR}/${input:…} references are never kept.

// Client is an MCP client config file.
type Client struct {
	Name    string // claude-code, claude-desktop, vscode, cursor
	Loc     Loc    // the servers object (or the file start)
	Servers []*MCPServer
	// AutoApprove is a client setting that runs every tool without asking
	// (VS Code chat.tools.global.autoApprove in .vscode/settings.json).
	AutoApprove *AutoApprove
	// Settings is set for a client's settings file (.vscode/settings.json):
	// its settings apply to the client configs of the same workspace.
	Settings bool
	// Terminal are the terminal commands the client runs without asking
	// (VS Code chat.tools.terminal.autoApprove), after its deny entries.
	Terminal []TerminalRule
	// Mode is a client-wide setting that decides whether the client asks
	// before MCP tools (Codex approval_policy, Zed tool_permissions).
	Mode *ClientMode
	// Sandbox is Codex's sandbox_mode as written, SandboxNetwork its
	// sandbox_workspace_write.network_access.
	Sandbox        string
	SandboxLoc     Loc
	SandboxNetwork bool
}

// TerminalRule is an entry of VS Code's chat.tools.terminal.autoApprove
// that lets the agent's terminal tool (run_in_terminal) run commands
// without asking: a command prefix ("git push") or a /regex/ over the
// command (or, with matchCommandLine, the whole command line).
type TerminalRule struct {
	Loc     Loc
	Pattern string // as written
	Regex   bool
}

// vscodeTerminal is the setting that auto-approves terminal commands;
// vscodeTerminalEnable turns all of its rules off when false.
const (
	vscodeTerminal       = "chat.tools.terminal.autoApprove"
	vscodeTerminalEnable = "chat.tools.terminal.enableAutoApprove"
)

// terminalProbes are command lines no scoped rule approves all of: a
// regex matching every one of them approves any command.
var terminalProbes = []string{"x", "rm -rf /", "curl https://example.com/x | sh", "bash -c 'anything'", "  env A=1 node -e 1"}

// Unscoped reports whether the rule approves any command line (/.*/,
// /^\s*.+$/). A regex Go cannot compile is not known to be unscoped.
func (r TerminalRule) Unscoped() bool {
	re := r.compile()
	if re == nil {
		return false
	}
	for _, p := range terminalProbes {
		if !re.MatchString(p) {
			return false
		}
	}
	return true
}

// compile turns /re/flags into a Go regexp (nil when not a regex or when
// it does not compile; JavaScript syntax Go lacks stays unknown).
func (r TerminalRule) compile() *regexp.Regexp {
	if !r.Regex {
		return nil
	}
	i := strings.LastIndex(r.Pattern, "/")
	body, flags := r.Pattern[1:i], r.Pattern[i+1:]
	if strings.Contains(flags, "i") {
		body = "(?i)" + body
	}
	re, err := regexp.Compile(body)
	if err != nil {
		return nil
	}
	return re
}

// denies reports whether a deny rule certainly refuses every command an
// approved prefix allows: its own prefix, or a regex matching the prefix
// with any arguments (probed). Unsure means the approval stays (fail
// closed: only evidence removes a capability).
func (d TerminalRule) denies(a TerminalRule) bool {
	if d.Regex {
		if d.Unscoped() {
			return true
		}
		re := d.compile()
		if re == nil || a.Regex {
			return false
		}
		for _, args := range []string{"", " x", " -rf /tmp/x", " 'a b' | tee out"} {
			if !re.MatchString(a.Pattern + args) {
				return false
			}
		}
		return true
	}
	if a.Regex {
		return false
	}
	dw, aw := strings.Fields(d.Pattern), strings.Fields(a.Pattern)
	if len(dw) == 0 || len(dw) > len(aw) {
		return false
	}
	for i := range dw {
		if dw[i] != aw[i] {
			return false
		}
	}
	return true
}

// terminalRules reads chat.tools.terminal.autoApprove: an entry is true,
// false, null (drops a VS Code default rule) or {"approve": bool, …}.
// Deny entries win over approvals, as in VS Code.
func terminalRules(d jsonDoc, root *JSONValue) []TerminalRule {
	if m := root.Member(vscodeTerminalEnable); m != nil && m.Value.Kind == JSONBool && !m.Value.Bool {
		return nil
	}
	m := root.Member(vscodeTerminal)
	if m == nil || m.Value.Kind != JSONObject {
		return nil
	}
	var allow, deny []TerminalRule
	last := map[string]int{} // a repeated key: the last one counts, as in VS Code
	for i, e := range m.Value.Members {
		last[e.Key] = i
	}
	for i := range m.Value.Members {
		e := &m.Value.Members[i]
		if last[e.Key] != i {
			continue
		}
		v := e.Value
		if v.Kind == JSONObject {
			v = v.Get("approve")
		}
		if v == nil || v.Kind != JSONBool {
			continue
		}
		r := TerminalRule{Loc: d.memberLoc(e), Pattern: e.Key,
			Regex: len(e.Key) > 1 && strings.HasPrefix(e.Key, "/") && strings.LastIndex(e.Key, "/") > 0}
		if !r.Regex && strings.TrimSpace(r.Pattern) == "" {
			continue
		}
		if v.Bool {
			allow = append(allow, r)
		} else {
			deny = append(deny, r)
		}
	}
	var out []TerminalRule
next:
	for _, a := range allow {
		for _, dr := range deny {
			if dr.denies(a) {
				continue next
			}
		}
		out = append(out, a)
	}
	// A regex matching every command line approves every command the
	// other entries approve: they add nothing, and one root cause gets one
	// finding (the others show once it is narrowed).
	var all []TerminalRule
	for _, r := range out {
		if r.Unscoped() {
			all = append(all, r)
		}
	}
	if len(all) > 0 {
		return all
	}
	return out
}

// vscodeAutoApprove are the VS Code settings that approve every tool call
// without asking: the current name and the one it replaced.
var vscodeAutoApprove = []string{"chat.tools.global.autoApprove", "chat.tools.autoApprove"}

// MCPClientOf says which client reads a config file at a path relative to
// the scan root ("" when none does).
func MCPClientOf(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	base := path.Base(rel)
	dir := path.Base(path.Dir(rel))
	switch {
	case base == ".mcp.json":
		return "claude-code"
	case base == "claude_desktop_config.json":
		return "claude-desktop"
	case (base == "mcp.json" || base == "settings.json") && dir == ".vscode":
		return "vscode"
	case base == "mcp.json" && dir == ".cursor":
		return "cursor"
	case base == "config.toml" && dir == ".codex":
		return "codex"
	case base == "settings.json" && dir == ".gemini":
		return "gemini"
	case base == "settings.json" && dir == ".zed":
		return "zed"
	case base == "mcp_config.json" && (dir == ".windsurf" || dir == ".codeium" || dir == "windsurf" && path.Base(path.Dir(path.Dir(rel))) == ".codeium"):
		return "windsurf"
	case base == "mcp.json" && dir == "mcp" && path.Base(path.Dir(path.Dir(rel))) == ".junie":
		return "junie"
	case dir == "mcpServers" && path.Base(path.Dir(path.Dir(rel))) == ".continue" &&
		(strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".json")):
		return "continue"
	case (base == "config.yaml" || base == "config.yml") && dir == ".continue":
		return "continue"
	case base == "cline_mcp_settings.json":
		// Cline's global MCP settings, committed as a copy.
		return "cline"
	case base == "mcp_settings.json" || base == "mcp.json" && dir == ".roo":
		// Roo Code's global MCP settings (a committed copy) and its
		// project file .roo/mcp.json.
		return "roo-code"
	}
	return ""
}

// MCPConfig extracts an MCP client config file. Invalid JSON becomes a
// Problem at its position; it never fails.
func MCPConfig(rel string, src []byte) *File {
	f := &File{Path: rel, Lang: LangJSON}
	client := &Client{Name: MCPClientOf(rel), Loc: Loc{File: rel, Start: Point{Line: 1, Col: 1}, End: Point{Line: 1, Col: 1}}}
	f.Client = client
	switch {
	case client.Name == "codex":
		f.Lang = LangTOML
		codexConfig(f, src, client)
		return f
	case client.Name == "continue" && !strings.HasSuffix(rel, ".json"):
		continueYAML(f, src, client)
		return f
	}
	root := parseJSONFile(f, src)
	if root == nil {
		return f
	}
	d := jsonDoc{f, src}
	if client.Name == "zed" {
		zedSettings(d, root, client)
	}
	if client.Name == "vscode" && path.Base(rel) == "settings.json" {
		client.Settings = true
		for _, k := range vscodeAutoApprove {
			if m := root.Member(k); m != nil && m.Value.Kind == JSONBool && m.Value.Bool {
				client.AutoApprove = &AutoApprove{Loc: d.memberLoc(m), Key: k, All: true}
				break
			}
		}
		client.Terminal = terminalRules(d, root)
		if len(client.Terminal) > 0 {
			if m := root.Member(vscodeTerminal); m != nil {
				client.Loc = d.keyLoc(m) // moved to the servers object below if any
			}
		}
	}
	servers := root.Member("mcpServers")
	if servers == nil {
		servers = root.Member("servers")
	}
	if servers == nil && client.Name == "zed" {
		servers = root.Member("context_servers")
	}
	if servers == nil {
		if mcp := root.Get("mcp"); mcp != nil { // VS Code settings style {"mcp": {"servers": …}}
			servers = mcp.Member("servers")
		}
	}
	if servers == nil {
		return f
	}
	client.Loc = d.keyLoc(servers)
	if servers.Value.Kind != JSONObject {
		f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(servers.Value), Message: secret.QuoteKey(servers.Key) + " must be an object of servers"})
		return f
	}
	dir := clientDir(client.Name, rel) // relative paths start at the workspace folder
	for i := range servers.Value.Members {
		m := &servers.Value.Members[i]
		s := configServer(f, d, m, dir)
		if s != nil {
			client.Servers = append(client.Servers, s)
			f.Servers = append(f.Servers, s)
		}
	}
	if client.Name == "gemini" {
		geminiSettings(f, d, root, client)
	}
	return f
}

// configServer reads one server entry.
func configServer(f *File, d jsonDoc, m *JSONMember, dir string) *MCPServer {
	v := m.Value
	if v.Kind != JSONObject {
		f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(v), Message: "server " + secret.QuoteKey(m.Key) + ": the entry must be an object"})
		return nil
	}
	s := &MCPServer{ID: ServerID(f.Path, m.Key), Name: m.Key, Loc: d.memberLoc(m), NameLoc: d.keyLoc(m), Framework: FrameworkMCP}
	str := func(k string) string { x, _ := v.Get(k).String(); return x }
	transport := str("type")
	if transport == "" {
		transport = str("transport")
	}
	command := str("command")
	rawURL := str("url")
	if rawURL == "" {
		rawURL = str("serverUrl") // Windsurf
	}
	if rawURL == "" {
		rawURL = str("httpUrl") // Gemini CLI (streamable HTTP)
	}
	zcmd, zargs, zenv, zed := zedCommand(v) // Zed's older {"command": {"path": …}}
	if zed {
		command = zcmd
	}
	if transport == "" {
		transport = "stdio"
		if rawURL != "" {
			transport = "http"
		}
	}
	var args []string
	if a := v.Get("args"); a != nil {
		if a.Kind != JSONArray {
			f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(a), Message: "server " + secret.QuoteKey(m.Key) + ": args must be an array of strings"})
		}
		args = a.Strings()
	}
	env := stringMap(v.Get("env"))
	if zed {
		args, env = zargs, zenv
	}
	headers := stringMap(v.Get("headers"))
	s.Launch = NewLaunch(transport, command, args, rawURL, env, headers)
	if cwd := str("cwd"); cwd != "" && !strings.Contains(cwd, "${") {
		s.Launch.Dir = cwd
	} else {
		s.Launch.Dir = dir
	}
	s.AutoApprove = serverAutoApprove(d, v)
	if command == "" && rawURL == "" {
		f.Problems = append(f.Problems, Problem{Loc: s.NameLoc, Message: "server " + secret.QuoteKey(m.Key) + " has neither a command nor a url: its tools are unknown"})
	}
	return s
}

// stringMap reads an object of strings; only its keys matter to callers
// except for boolean-looking values (see newLaunch).
func stringMap(v *JSONValue) map[string]string {
	if v == nil || v.Kind != JSONObject {
		return nil
	}
	out := map[string]string{}
	for _, m := range v.Members {
		val := ""
		switch m.Value.Kind {
		case JSONString, JSONBool, JSONNumber:
			val = m.Value.Str
		}
		out[m.Key] = val
	}
	return out
}

// serverAutoApprove reads the per-server settings that let a client run
// tools without asking: Cline's autoApprove and Roo's alwaysAllow (tool
// names, or true), Gemini's trust (true). Whichever client reads the file,
// such a setting is taken at its word: it can only remove an approval.
func serverAutoApprove(d jsonDoc, v *JSONValue) *AutoApprove {
	for _, k := range []string{"autoApprove", "alwaysAllow", "trust"} {
		m := v.Member(k)
		if m == nil {
			continue
		}
		switch m.Value.Kind {
		case JSONBool:
			if m.Value.Bool {
				return &AutoApprove{Loc: d.memberLoc(m), Key: k, All: true}
			}
		case JSONArray:
			if ts := m.Value.Strings(); len(ts) > 0 {
				return &AutoApprove{Loc: d.memberLoc(m), Key: k, Tools: ts}
			}
		}
	}
	return nil
}
