package extract

import (
	"path"
	"strings"

	"github.com/acg-dev/acg/internal/secret"
)

// Claude Code plugins: .claude-plugin/plugin.json (its inline
// mcpServers, and the paths of its agents, hooks and commands), the
// plugin's own .mcp.json (read as any .mcp.json), agents/*.md and
// hooks/hooks.json at the plugin root, and .claude-plugin/marketplace.json
// (its plugins are read where they are in the tree). A plugin is analysed
// as the Claude Code project at its root: its servers, subagents and
// hooks join Claude Code's session when the plugin is installed.

// ClaudePlugin is what a plugin manifest says.
type ClaudePlugin struct {
	Name string
	Loc  Loc
	// Marketplace is set for a marketplace.json.
	Marketplace bool
}

// ClaudePluginKind says which plugin file a path is: "plugin",
// "marketplace", a candidate "agent" (agents/NAME.md outside .claude/) or
// "hooks" (hooks/hooks.json). Candidates count only for a directory that
// holds .claude-plugin/plugin.json (resolve/claude.go).
func ClaudePluginKind(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	base, dir := path.Base(rel), path.Base(path.Dir(rel))
	switch {
	case dir == ".claude-plugin" && base == "plugin.json":
		return "plugin"
	case dir == ".claude-plugin" && base == "marketplace.json":
		return "marketplace"
	case dir == "agents" && strings.HasSuffix(base, ".md") && !strings.Contains("/"+rel, "/.claude/"):
		return "agent"
	case dir == "hooks" && base == "hooks.json" && !strings.Contains("/"+rel, "/.claude/"):
		return "hooks"
	}
	return ""
}

// pluginRoot is the plugin directory of a plugin file.
func pluginRoot(rel string) string {
	return path.Dir(path.Dir(path.Clean(strings.ReplaceAll(rel, "\\", "/"))))
}

// ClaudePluginFile extracts a plugin.json or marketplace.json: inline
// mcpServers become the servers of a Claude Code client at the plugin
// root; paths acg does not read (custom agent, hook or server locations)
// are notices, since what they hold could change the findings.
func ClaudePluginFile(rel string, src []byte) *File {
	f := &File{Path: rel, Lang: LangJSON}
	root := parseJSONFile(f, src)
	start := Loc{File: rel, Start: Point{Line: 1, Col: 1}, End: Point{Line: 1, Col: 1}}
	pl := &ClaudePlugin{Loc: start, Marketplace: ClaudePluginKind(rel) == "marketplace"}
	f.Plugin = pl
	if root == nil {
		return f
	}
	d := jsonDoc{f, src}
	if n, ok := root.Get("name").String(); ok {
		pl.Name = secret.Mask(n)
	}
	if pl.Marketplace {
		return f // its plugins are read at their own paths
	}
	client := &Client{Name: "claude-code", Loc: start}
	f.Client = client
	proot := pluginRoot(rel)
	if m := root.Member("mcpServers"); m != nil {
		switch m.Value.Kind {
		case JSONObject:
			client.Loc = d.keyLoc(m)
			for i := range m.Value.Members {
				if s := configServer(f, d, &m.Value.Members[i], proot); s != nil {
					client.Servers = append(client.Servers, s)
					f.Servers = append(f.Servers, s)
				}
			}
		default:
			for _, p := range pathsOf(m.Value) {
				if path.Clean(strings.TrimPrefix(p, "${CLAUDE_PLUGIN_ROOT}/")) != ".mcp.json" {
					f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(m.Value),
						Message: "mcpServers names " + secret.QuoteKey(p) + ": acg reads a plugin's servers inline or from its .mcp.json only, so these servers are not analysed"})
				}
			}
		}
	}
	for _, k := range []string{"agents", "hooks"} {
		m := root.Member(k)
		if m == nil || m.Value.Kind == JSONObject {
			continue // inline hooks are read below
		}
		for _, p := range pathsOf(m.Value) {
			p = path.Clean(strings.TrimPrefix(p, "${CLAUDE_PLUGIN_ROOT}/"))
			if k == "agents" && (p == "agents" || path.Dir(p) == "agents") || k == "hooks" && p == "hooks/hooks.json" {
				continue
			}
			f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(m.Value),
				Message: k + " names " + secret.QuoteKey(p) + ": acg reads a plugin's " + k + " from " + map[string]string{"agents": "agents/*.md", "hooks": "hooks/hooks.json"}[k] + " only, so these are not analysed"})
		}
	}
	if m := root.Member("hooks"); m != nil && m.Value.Kind == JSONObject {
		// Inline hooks have the settings' form {"PreToolUse": [...]}.
		cs := &ClaudeSettings{}
		f.Claude = cs
		cs.Hooks = claudeHooks(rel, d, m.Value)
	}
	return f
}

// pathsOf reads a string or an array of strings.
func pathsOf(v *JSONValue) []string {
	if s, ok := v.String(); ok {
		return []string{s}
	}
	return v.Strings()
}

// ClaudePluginAgentFile reads agents/NAME.md at a plugin root. A file
// without frontmatter is not a subagent and says nothing (the directory
// may not be a plugin's).
func ClaudePluginAgentFile(rel string, src []byte) *File {
	if _, _, ok := frontmatter(src); !ok {
		return &File{Path: rel, Lang: LangMarkdown}
	}
	f := ClaudeAgentFile(rel, src)
	// Whether this is a plugin's agent is known only beside a plugin.json:
	// a stray agents/*.md elsewhere must not turn into a notice.
	f.Problems = nil
	return f
}
