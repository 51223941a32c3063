package extract

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/internal/secret"
)

// Clients beyond VS Code, Cursor and Claude: Codex CLI, Gemini CLI,
// Windsurf, Zed, Continue and Junie. What each asks by default and which
// settings remove or restore the confirmation was checked against the
// client's documentation or source (docs/clients.md); a client whose
// documentation promises no confirmation is taken to run MCP tools
// unasked (fail closed).

// ClientInfo is what acg knows of a client's confirmations.
type ClientInfo struct {
	Title string
	// Confirms: the client asks the user before it runs an MCP tool
	// unless a setting says otherwise.
	Confirms bool
	// Keep says, in the client's own terms, how to keep or restore that
	// confirmation (or, for a client that never asks, what to do instead).
	Keep string
}

var clientInfo = map[string]ClientInfo{
	"vscode":         {Title: "VS Code", Confirms: true},
	"cursor":         {Title: "Cursor", Confirms: true},
	"claude-desktop": {Title: "Claude Desktop", Confirms: true},
	"claude-code":    {Title: "Claude Code", Confirms: true},
	"codex": {Title: "Codex CLI", Confirms: true,
		Keep: `keep approval_policy at "on-request" or "untrusted" in .codex/config.toml, or set approval_mode = "prompt" under [mcp_servers.SERVER.tools.TOOL]`},
	"gemini": {Title: "Gemini CLI", Confirms: true,
		Keep: `leave "trust" unset or false on the server in .gemini/settings.json, or list the tool in its "excludeTools"`},
	// Windsurf's documentation describes no confirmation before Cascade
	// runs an MCP tool, only per-tool toggles kept outside the file.
	"windsurf": {Title: "Windsurf", Confirms: false,
		Keep: "turn the tool off in the server's Tools settings in Windsurf (Cascade runs enabled MCP tools without asking), or remove the server from mcp_config.json"},
	"zed": {Title: "Zed", Confirms: true,
		Keep: `set "agent": {"tool_permissions": {"default": "confirm"}} (and no "always_allow_tool_actions": true) in .zed/settings.json`},
	"continue": {Title: "Continue", Confirms: true,
		Keep: `keep the tool's policy at "Ask First" in Continue's tool settings, or remove the server from .continue/mcpServers`},
	// Cline and Roo Code ask before each MCP tool unless the server's
	// autoApprove / alwaysAllow list names it.
	"cline": {Title: "Cline", Confirms: true,
		Keep: `take the tool off the server's "autoApprove" list in cline_mcp_settings.json`},
	"roo-code": {Title: "Roo Code", Confirms: true,
		Keep: `take the tool off the server's "alwaysAllow" list in the MCP settings`},
	"junie": {Title: "Junie", Confirms: true,
		Keep: "keep the tool off Junie's Action Allowlist (Settings | Tools | Junie | Action Allowlist)"},
}

// ClientInfoOf returns what acg knows of a client (its name as title and
// no confirmation when unknown: fail closed).
func ClientInfoOf(name string) ClientInfo {
	if c, ok := clientInfo[name]; ok {
		return c
	}
	return ClientInfo{Title: name}
}

// ClientMode is a client setting that decides whether the client asks
// before some or all of a server's tools run: Codex's approval_mode or
// approval_policy, Zed's tool_permissions.
type ClientMode struct {
	Loc   Loc
	Key   string // as written: "approval_policy", "tools.fetch.approval_mode"
	Value string // as written: "never", "approve", "prompt"
	All   bool
	Tools []string
	// Ask: the client asks before the tools run; else they run unasked.
	Ask bool
	// Fix is the change, in the client's own terms, that makes it ask.
	Fix string
}

// Covers reports whether the mode applies to a tool (by the server's
// name for it). For "*", the tool standing for every tool of an unknown
// server, a list that runs tools unasked covers it (some may be listed);
// a list that asks does not (the others still run unasked).
func (m *ClientMode) Covers(raw string) bool {
	if m == nil {
		return false
	}
	if m.All || raw == "*" && len(m.Tools) > 0 && !m.Ask {
		return true
	}
	for _, t := range m.Tools {
		if t == raw || t == "*" {
			return true
		}
	}
	return false
}

// clientDir is the workspace folder a client config's relative paths
// start at: the parent of the client's dot directory.
func clientDir(client, rel string) string {
	dir := path.Dir(rel)
	switch client {
	case "vscode", "cursor", "codex", "gemini", "zed", "windsurf":
		return path.Dir(dir)
	case "continue", "junie":
		if path.Base(dir) == "mcpServers" || path.Base(dir) == "mcp" {
			dir = path.Dir(dir)
		}
		return path.Dir(dir)
	}
	return dir
}

// ClientWorkspace is the workspace folder a client config belongs to.
func ClientWorkspace(client, rel string) string {
	return clientDir(client, path.Clean(strings.ReplaceAll(rel, "\\", "/")))
}

// ---- Gemini CLI ----

// geminiSettings applies .gemini/settings.json's filters: mcp.allowed
// (only these servers connect), mcp.excluded (these do not), and per
// server includeTools / excludeTools (an excluded tool is not reachable;
// excludeTools wins). trust is read with the other per-server
// auto-approvals (serverAutoApprove).
func geminiSettings(f *File, d jsonDoc, root *JSONValue, c *Client) {
	var allowed map[string]bool
	excluded := map[string]bool{}
	if mcp := root.Get("mcp"); mcp != nil {
		if a := mcp.Get("allowed"); a != nil && a.Kind == JSONArray {
			allowed = map[string]bool{}
			for _, s := range a.Strings() {
				allowed[s] = true
			}
		}
		if x := mcp.Get("excluded"); x != nil {
			for _, s := range x.Strings() {
				excluded[s] = true
			}
		}
	}
	servers := root.Get("mcpServers")
	var kept []*MCPServer
	for _, s := range c.Servers {
		if allowed != nil && !allowed[s.Name] || excluded[s.Name] {
			continue // Gemini CLI does not connect to it
		}
		if servers != nil {
			if v := servers.Get(s.Name); v != nil {
				if inc := v.Get("includeTools"); inc != nil && inc.Kind == JSONArray {
					s.Allowed = append([]string{}, inc.Strings()...)
				}
				if exc := v.Get("excludeTools"); exc != nil {
					s.Blocked = append(s.Blocked, exc.Strings()...)
				}
			}
		}
		kept = append(kept, s)
	}
	dropServers(f, c, kept)
}

// dropServers keeps only the given servers of a client config.
func dropServers(f *File, c *Client, kept []*MCPServer) {
	in := map[*MCPServer]bool{}
	for _, s := range kept {
		in[s] = true
	}
	c.Servers = kept
	var fs []*MCPServer
	for _, s := range f.Servers {
		if in[s] || s.Launch == nil {
			fs = append(fs, s)
		}
	}
	f.Servers = fs
}

// ---- Zed ----

// zedSettings reads the agent settings of .zed/settings.json that let
// Zed run tools without asking: agent.tool_permissions.default "allow"
// (Zed 0.224 and later) and agent.always_allow_tool_actions (earlier).
// Either one allowing is taken at its word.
func zedSettings(d jsonDoc, root *JSONValue, c *Client) {
	agent := root.Get("agent")
	if agent == nil {
		return
	}
	if tp := agent.Get("tool_permissions"); tp != nil {
		if m := tp.Member("default"); m != nil && m.Value.Kind == JSONString && m.Value.Str == "allow" {
			c.Mode = &ClientMode{Loc: d.memberLoc(m), Key: "agent.tool_permissions.default", Value: "allow", All: true,
				Fix: `set "agent": {"tool_permissions": {"default": "confirm"}} in .zed/settings.json`}
			return
		}
	}
	if m := agent.Member("always_allow_tool_actions"); m != nil && m.Value.Kind == JSONBool && m.Value.Bool {
		c.Mode = &ClientMode{Loc: d.memberLoc(m), Key: "agent.always_allow_tool_actions", Value: "true", All: true,
			Fix: `set "always_allow_tool_actions": false under "agent" in .zed/settings.json`}
	}
}

// zedServer reads a context_servers entry in its older form,
// {"command": {"path": …, "args": […], "env": {…}}}, into the flat form
// configServer reads.
func zedCommand(v *JSONValue) (cmd string, args []string, env map[string]string, ok bool) {
	c := v.Get("command")
	if c == nil || c.Kind != JSONObject {
		return "", nil, nil, false
	}
	cmd, _ = c.Get("path").String()
	if a := c.Get("args"); a != nil {
		args = a.Strings()
	}
	return cmd, args, stringMap(c.Get("env")), true
}

// ---- Codex CLI ----

// codexConfig reads .codex/config.toml: [mcp_servers.NAME] tables
// (command, args, env, url; enabled, enabled_tools, disabled_tools;
// default_tools_approval_mode and [mcp_servers.NAME.tools.TOOL]
// approval_mode) and approval_policy (or the selected profile's).
// Precedence, most specific first: a tool's approval_mode, the server's
// default_tools_approval_mode, approval_policy. "approve" and "never" run
// tools unasked; "prompt" and "writes" ask (acg's actions are writes);
// "auto" follows approval_policy, which asks unless it is "never".
func codexConfig(f *File, src []byte, c *Client) {
	var doc map[string]any
	if _, err := toml.Decode(string(src), &doc); err != nil {
		at := Point{Line: 1, Col: 1}
		msg := err.Error()
		var pe toml.ParseError
		if errors.As(err, &pe) {
			at = Point{Line: int32(pe.Position.Line), Col: int32(pe.Position.Col)}
			msg = pe.Message
		}
		f.Problems = append(f.Problems, Problem{Loc: Loc{File: f.Path, Start: at, End: at}, Message: "invalid TOML: " + secret.DropQuoted(msg)})
		return
	}
	ix := tomlIndex(f, src)
	policy, policyKey := tomlString(doc, "approval_policy"), "approval_policy"
	if prof := tomlString(doc, "profile"); prof != "" {
		if p, ok := tomlTable(doc, "profiles")[prof].(map[string]any); ok {
			if v := tomlString(p, "approval_policy"); v != "" {
				policy, policyKey = v, "profiles."+prof+".approval_policy"
			}
		}
	}
	switch policy {
	case "":
	case "untrusted", "on-request", "on-failure":
		// Set and asking: a user-level "never" under it does not apply
		// (--user-config merges the project's policy over the user's).
		c.Mode = &ClientMode{Loc: ix.at(strings.Split(policyKey, ".")...), Key: policyKey, Value: policy, All: true, Ask: true}
	case "never":
		c.Mode = &ClientMode{Loc: ix.at(strings.Split(policyKey, ".")...), Key: policyKey, Value: policy, All: true,
			Fix: `set approval_policy = "on-request" (or "untrusted") in .codex/config.toml`}
	default:
		if _, isStr := doc["approval_policy"].(string); isStr || policy != "" {
			l := ix.at(strings.Split(policyKey, ".")...)
			f.Problems = append(f.Problems, Problem{Loc: l, Message: "approval_policy: unknown value; acg assumes Codex runs every tool without asking"})
			c.Mode = &ClientMode{Loc: l, Key: policyKey, Value: secret.Mask(policy), All: true,
				Fix: `set approval_policy = "on-request" (or "untrusted") in .codex/config.toml`}
		}
	}
	if _, ok := doc["approval_policy"]; ok && c.Mode == nil && policy == "" {
		// A table (granular policies) acg does not read: fail closed.
		l := ix.at("approval_policy")
		f.Problems = append(f.Problems, Problem{Loc: l, Message: "approval_policy is not a string acg reads; it assumes Codex runs every tool without asking"})
		c.Mode = &ClientMode{Loc: l, Key: "approval_policy", Value: "(table)", All: true,
			Fix: `set approval_policy = "on-request" (or "untrusted") in .codex/config.toml`}
	}
	c.Sandbox = tomlString(doc, "sandbox_mode")
	if c.Sandbox != "" {
		c.SandboxLoc = ix.at("sandbox_mode")
	}
	if ws, ok := tomlTable(doc, "sandbox_workspace_write")["network_access"].(bool); ok {
		c.SandboxNetwork = ws
	}
	servers := tomlTable(doc, "mcp_servers")
	if servers == nil {
		return
	}
	c.Loc = ix.at("mcp_servers")
	dir := clientDir("codex", f.Path)
	for _, name := range ix.order("mcp_servers", servers) {
		v, ok := servers[name].(map[string]any)
		if !ok {
			f.Problems = append(f.Problems, Problem{Loc: ix.at("mcp_servers", name), Message: "server " + secret.QuoteKey(name) + ": the entry must be a table"})
			continue
		}
		if en, ok := v["enabled"].(bool); ok && !en {
			continue // Codex does not start it
		}
		head := ix.at("mcp_servers", name)
		s := &MCPServer{ID: ServerID(f.Path, name), Name: name, Loc: head, NameLoc: head, Framework: FrameworkMCP}
		command, rawURL := tomlString(v, "command"), tomlString(v, "url")
		transport := "stdio"
		if rawURL != "" {
			transport = "http"
		}
		var args []string
		if a, ok := v["args"].([]any); ok {
			for _, x := range a {
				if xs, ok := x.(string); ok {
					args = append(args, xs)
				}
			}
		}
		// newLaunch keeps names, and a value only when it is a boolean
		// switch a server reads (GITHUB_READ_ONLY=1): never a secret.
		env := map[string]string{}
		for k, x := range tomlTable(v, "env") {
			switch x := x.(type) {
			case string:
				env[k] = x
			case bool, int64, float64:
				env[k] = fmt.Sprint(x)
			default:
				env[k] = ""
			}
		}
		headers := map[string]string{}
		for _, h := range []string{"http_headers", "env_http_headers"} {
			for k := range tomlTable(v, h) {
				headers[k] = ""
			}
		}
		s.Launch = NewLaunch(transport, command, args, rawURL, env, headers)
		s.Launch.Dir = dir
		if cwd := tomlString(v, "cwd"); cwd != "" {
			s.Launch.Dir = cwd
		}
		if command == "" && rawURL == "" {
			f.Problems = append(f.Problems, Problem{Loc: head, Message: "server " + secret.QuoteKey(name) + " has neither a command nor a url: its tools are unknown"})
		}
		if en, ok := v["enabled_tools"].([]any); ok {
			s.Allowed = []string{}
			for _, x := range en {
				if xs, ok := x.(string); ok {
					s.Allowed = append(s.Allowed, xs)
				}
			}
		}
		if dis, ok := v["disabled_tools"].([]any); ok {
			for _, x := range dis {
				if xs, ok := x.(string); ok {
					s.Blocked = append(s.Blocked, xs)
				}
			}
		}
		tools := tomlTable(v, "tools")
		for _, tn := range ix.order("mcp_servers."+name+".tools", tools) {
			tv, _ := tools[tn].(map[string]any)
			if m := codexMode(tomlString(tv, "approval_mode"), ix.at("mcp_servers", name, "tools", tn, "approval_mode"),
				"mcp_servers."+name+".tools."+tn+".approval_mode", name, tn); m != nil {
				m.Tools = []string{tn}
				s.Modes = append(s.Modes, m)
			}
		}
		if m := codexMode(tomlString(v, "default_tools_approval_mode"), ix.at("mcp_servers", name, "default_tools_approval_mode"),
			"mcp_servers."+name+".default_tools_approval_mode", name, ""); m != nil {
			m.All = true
			s.Modes = append(s.Modes, m)
		}
		c.Servers = append(c.Servers, s)
		f.Servers = append(f.Servers, s)
	}
}

// codexMode reads an approval_mode value ("auto" and unknown values
// defer to approval_policy; an unknown value cannot ask, so it adds no
// confirmation).
func codexMode(v string, l Loc, key, server, tool string) *ClientMode {
	where := "[mcp_servers." + server + "]"
	what := "default_tools_approval_mode"
	if tool != "" {
		where, what = "[mcp_servers."+server+".tools."+tool+"]", "approval_mode"
	}
	switch v {
	case "approve":
		return &ClientMode{Loc: l, Key: key, Value: v, Fix: `set ` + what + ` = "prompt" under ` + where + ` in .codex/config.toml`}
	case "prompt", "writes":
		return &ClientMode{Loc: l, Key: key, Value: v, Ask: true}
	}
	return nil
}

func tomlString(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func tomlTable(m map[string]any, k string) map[string]any {
	t, _ := m[k].(map[string]any)
	return t
}

// tomlKeys locates the tables and keys of a TOML file by line (the
// decoder keeps no positions): a [table] header, or a key = line under
// the current table, by its dotted path.
type tomlKeys struct {
	f     *File
	locs  map[string]Loc
	first []string // paths in source order
}

func tomlIndex(f *File, src []byte) tomlKeys {
	ix := tomlKeys{f: f, locs: map[string]Loc{}}
	var table []string
	for i, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if t == "" || t[0] == '#' {
			continue
		}
		var p []string
		if t[0] == '[' {
			h := strings.Trim(t, "[]")
			if j := strings.Index(t, "]"); j > 0 {
				h = strings.Trim(t[:j], "[] \t")
			}
			table = tomlPath(h)
			p = table
		} else if eq := strings.Index(t, "="); eq > 0 {
			p = append(append([]string{}, table...), tomlPath(t[:eq])...)
		} else {
			continue
		}
		key := strings.Join(p, "\x00")
		if _, seen := ix.locs[key]; !seen {
			end := len(strings.TrimRight(line, " \t\r"))
			ix.locs[key] = Loc{File: f.Path, Start: Point{Line: int32(i + 1), Col: int32(indent + 1)}, End: Point{Line: int32(i + 1), Col: int32(end + 1)}}
			ix.first = append(ix.first, key)
		}
	}
	return ix
}

// tomlPath splits a dotted key, unquoting its parts.
func tomlPath(k string) []string {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	for i := 0; i < len(k); i++ {
		ch := k[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(ch)
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '.':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		case ch != ' ' && ch != '\t':
			cur.WriteByte(ch)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// at is the location of a table or key (the closest enclosing one found,
// else the file start).
func (ix tomlKeys) at(p ...string) Loc {
	for n := len(p); n > 0; n-- {
		if l, ok := ix.locs[strings.Join(p[:n], "\x00")]; ok {
			return l
		}
	}
	return Loc{File: ix.f.Path, Start: Point{Line: 1, Col: 1}, End: Point{Line: 1, Col: 1}}
}

// order lists a table's keys in source order (those not found by line,
// as in inline tables, after the others, sorted).
func (ix tomlKeys) order(table string, m map[string]any) []string {
	pre := strings.ReplaceAll(table, ".", "\x00") + "\x00"
	seen := map[string]bool{}
	var out []string
	for _, k := range ix.first {
		if !strings.HasPrefix(k, pre) {
			continue
		}
		name, _, _ := strings.Cut(k[len(pre):], "\x00")
		if _, ok := m[name]; ok && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// ---- Continue ----

// continueYAML reads a Continue YAML block (.continue/mcpServers/*.yaml)
// or config (.continue/config.yaml): its mcpServers list of
// {name, command, args, env, url, type}.
func continueYAML(f *File, src []byte, c *Client) {
	f.Lang = LangYAML
	f.Lines = LineStarts(src)
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		f.Problems = append(f.Problems, Problem{Loc: yamlErrLoc(f, src, 0, err), Message: "invalid YAML: " + yamlErrMsg(err)})
		return
	}
	y := yamlDoc{f: f, src: src}
	list := yamlGet(yamlMapping(&doc), "mcpServers")
	if list == nil {
		return
	}
	c.Loc = y.nodeLoc(list)
	if list.Kind != yaml.SequenceNode {
		f.Problems = append(f.Problems, Problem{Loc: y.nodeLoc(list), Message: "mcpServers must be a list of servers"})
		return
	}
	dir := clientDir("continue", f.Path)
	for _, e := range list.Content {
		if e.Kind != yaml.MappingNode {
			f.Problems = append(f.Problems, Problem{Loc: y.nodeLoc(e), Message: "mcpServers: each entry must be a mapping"})
			continue
		}
		str := func(k string) string {
			if n := yamlGet(e, k); n != nil && n.Kind == yaml.ScalarNode {
				return n.Value
			}
			return ""
		}
		name := str("name")
		nameLoc := y.nodeLoc(e)
		if n := yamlGet(e, "name"); n != nil {
			nameLoc = y.nodeLoc(n)
		}
		// "uses: owner/block" names a block on Continue's hub: its server
		// is not in the tree, so its tools are unknown (fail closed).
		uses := str("uses")
		if name == "" && uses != "" {
			name = uses
			if n := yamlGet(e, "uses"); n != nil {
				nameLoc = y.nodeLoc(n)
			}
		}
		if name == "" {
			f.Problems = append(f.Problems, Problem{Loc: nameLoc, Message: "mcpServers: an entry has no name"})
			continue
		}
		s := &MCPServer{ID: ServerID(f.Path, name), Name: secret.Mask(name), Loc: nameLoc, NameLoc: nameLoc, Framework: FrameworkMCP}
		command, rawURL := str("command"), str("url")
		transport := str("type")
		if transport == "" {
			transport = "stdio"
			if rawURL != "" {
				transport = "http"
			}
		}
		var args []string
		if a := yamlGet(e, "args"); a != nil && a.Kind == yaml.SequenceNode {
			for _, x := range a.Content {
				args = append(args, x.Value)
			}
		}
		env := map[string]string{}
		if en := yamlGet(e, "env"); en != nil && en.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(en.Content); i += 2 {
				env[en.Content[i].Value] = en.Content[i+1].Value // newLaunch keeps switches only
			}
		}
		if uses != "" && command == "" && rawURL == "" {
			transport, command = "hub", "continue-hub:"+uses
		}
		s.Launch = NewLaunch(transport, command, args, rawURL, env, nil)
		s.Launch.Dir = dir
		if cwd := str("cwd"); cwd != "" && !strings.Contains(cwd, "${") {
			s.Launch.Dir = cwd
		}
		if command == "" && rawURL == "" {
			f.Problems = append(f.Problems, Problem{Loc: nameLoc, Message: "server " + secret.QuoteKey(name) + " has neither a command nor a url: its tools are unknown"})
		}
		c.Servers = append(c.Servers, s)
		f.Servers = append(f.Servers, s)
	}
}
