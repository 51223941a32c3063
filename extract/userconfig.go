package extract

import (
	"path"
	"strings"

	"github.com/acg-dev/acg/internal/secret"
)

// User-level client files (acg scan --user-config): the files each client
// reads from the user's home beside the project's. They are named with a
// leading "~/" and never expanded, so no output holds the user's home.
// Which paths each client reads is in UserFiles; the scopes merge in the
// client's own order (incremental/claude.go, incremental/servers.go).

// UserPrefix starts the name of every user-level file.
const UserPrefix = "~/"

// IsUserFile reports whether a path names a user-level file (or a managed,
// machine-wide one: an absolute path).
func IsUserFile(rel string) bool {
	return strings.HasPrefix(rel, UserPrefix) || strings.HasPrefix(rel, "/")
}

// UserFile is one user-level path a client reads: Path under the home
// (with "~/"), or an absolute managed path; Glob for a directory of files
// (Continue's mcpServers/, Claude Code's agents/).
type UserFile struct {
	Client string
	Path   string
	Glob   string // a suffix: the directory's files ending in it
}

// UserFiles are the user-level files of each client acg knows, checked
// against each client's documentation (docs/clients.md, "User-level
// files"). macOS and Linux locations are both listed; a path that does
// not exist is skipped.
var UserFiles = []UserFile{
	{Client: "claude-code", Path: "~/.claude/settings.json"},
	{Client: "claude-code", Path: "~/.claude.json"},
	{Client: "claude-code", Path: "~/.claude/agents", Glob: ".md"},
	{Client: "claude-code", Path: "/etc/claude-code/managed-settings.json"},
	{Client: "claude-code", Path: "/Library/Application Support/ClaudeCode/managed-settings.json"},
	{Client: "codex", Path: "~/.codex/config.toml"},
	{Client: "gemini", Path: "~/.gemini/settings.json"},
	{Client: "gemini", Path: "/etc/gemini-cli/settings.json"},
	{Client: "cursor", Path: "~/.cursor/mcp.json"},
	{Client: "windsurf", Path: "~/.codeium/windsurf/mcp_config.json"},
	{Client: "cline", Path: "~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"},
	{Client: "cline", Path: "~/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"},
	{Client: "zed", Path: "~/.config/zed/settings.json"},
	{Client: "continue", Path: "~/.continue/config.yaml"},
	{Client: "continue", Path: "~/.continue/mcpServers", Glob: ""},
	{Client: "vscode", Path: "~/.config/Code/User/mcp.json"},
	{Client: "vscode", Path: "~/Library/Application Support/Code/User/mcp.json"},
}

// userClientOf classifies the user-level paths MCPClientOf does not know
// by their project name (Zed's and VS Code's user settings folders).
func userClientOf(rel string) string {
	if !IsUserFile(rel) {
		return ""
	}
	for _, u := range UserFiles {
		if u.Glob == "" && u.Path == rel && u.Client != "claude-code" {
			return u.Client
		}
	}
	return ""
}

// ClaudeScope is the scope of a Claude Code settings file, lowest first:
// user (~/.claude/settings.json), project (.claude/settings.json), local
// (.claude/settings.local.json and ~/.claude.json's project entry),
// managed (managed-settings.json). Claude Code's order is managed >
// command line > local > project > user; acg reads no command line.
func ClaudeScope(rel string) (string, int) {
	switch {
	case path.Base(rel) == "managed-settings.json" && strings.HasPrefix(rel, "/"):
		return "managed", 4
	case rel == "~/.claude.json":
		return "local", 2
	case strings.HasPrefix(rel, UserPrefix):
		return "user", 0
	case path.Base(rel) == "settings.local.json":
		return "local", 2
	}
	return "project", 1
}

// ClaudeUserJSON reads ~/.claude.json for the project at projectDir (an
// absolute path, matched as Claude Code keys its "projects"): the user's
// own MCP servers (top-level "mcpServers", user scope), the project
// entry's "mcpServers" (local scope), its "allowedTools" (allow rules)
// and "disabledMcpjsonServers". Nothing else is read: the file also holds
// account data and history, and none of it reaches a Fact.
func ClaudeUserJSON(rel string, src []byte, projectDir string) *File {
	f := &File{Path: rel, Lang: LangJSON}
	client := &Client{Name: "claude-code", Loc: Loc{File: rel, Start: Point{Line: 1, Col: 1}, End: Point{Line: 1, Col: 1}}}
	cs := &ClaudeSettings{Local: true, Scope: "local"}
	f.Client, f.Claude = client, cs
	root := parseJSONFile(f, src)
	if root == nil {
		return f
	}
	d := jsonDoc{f, src}
	read := func(obj *JSONValue) {
		m := obj.Member("mcpServers")
		if m == nil || m.Value.Kind != JSONObject {
			return
		}
		if !client.Loc.Valid() || client.Loc.Start.Line == 1 {
			client.Loc = d.keyLoc(m)
		}
		for i := range m.Value.Members {
			if s := configServer(f, d, &m.Value.Members[i], "."); s != nil {
				client.Servers = append(client.Servers, s)
				f.Servers = append(f.Servers, s)
			}
		}
	}
	read(root)
	projects := root.Get("projects")
	if projects == nil || projects.Kind != JSONObject {
		return f
	}
	var entry *JSONMember
	for i := range projects.Members {
		k := strings.TrimSuffix(strings.ReplaceAll(projects.Members[i].Key, "\\", "/"), "/")
		if k == strings.TrimSuffix(strings.ReplaceAll(projectDir, "\\", "/"), "/") {
			entry = &projects.Members[i]
		}
	}
	if entry == nil || entry.Value.Kind != JSONObject {
		return f
	}
	read(entry.Value)
	cs.Permissions = d.keyLoc(entry) // never the key's text in a message: it is a path of the home
	if at := entry.Value.Get("allowedTools"); at != nil && at.Kind == JSONArray {
		for _, e := range at.Elems {
			s, ok := e.String()
			if !ok {
				continue
			}
			s = secret.Mask(s)
			tool, spec := ParseRule(s)
			cs.Rules = append(cs.Rules, &PermissionRule{List: "allow", Rule: s, Tool: tool, Spec: spec, Loc: d.valueLoc(e)})
		}
	}
	cs.DisabledMCPServers = entry.Value.Get("disabledMcpjsonServers").Strings()
	return f
}
