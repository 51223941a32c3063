package extract

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/internal/secret"
)

// Claude Code: .claude/settings.json and settings.local.json (permission
// rules, defaultMode, PreToolUse hooks, project MCP server switches) and
// .claude/agents/*.md subagents (YAML frontmatter). The project's agent
// itself is assembled from these files and its .mcp.json when the
// workspace resolves them (package incremental); here each file only says
// what it holds, with the positions diagnostics and quick fixes need.

// ClaudeSettings is one Claude Code settings file.
type ClaudeSettings struct {
	Local bool // settings.local.json
	// Scope is user, project, local or managed (ClaudeScope).
	Scope string
	Rules []*PermissionRule
	// DefaultMode is permissions.defaultMode ("" when not set).
	DefaultMode    string
	DefaultModeLoc Loc
	Hooks          []*ClaudeHook
	// HooksOff is disableAllHooks: no hook of any settings file runs.
	HooksOff bool
	// DisabledMCPServers are .mcp.json servers the user turned off.
	DisabledMCPServers []string
	// Permissions is the permissions object (for edits that create it).
	Permissions Loc
	// Tools, when set, are the only built-in tools the session has (the
	// Agent SDK's tools option); nil is every built-in tool.
	Tools []string
}

// PermissionRule is one entry of permissions.allow, ask or deny.
type PermissionRule struct {
	List string // allow, ask, deny
	Rule string // as written: Bash(git push:*)
	Tool string // Bash, Read, WebFetch, mcp__github__create_issue …
	Spec string // the specifier inside the parentheses ("" when none)
	// Loc is the JSON string literal, quotes included.
	Loc Loc
	// ToAsk moves an allow rule to the ask list (the Claude Code quick
	// fix): remove the element, add it to "ask" (creating the array). The
	// edits do not overlap and are in source order.
	ToAsk []TextEdit
}

// Scoped reports whether the rule narrows its tool with a specifier that
// is not a wildcard: Bash(git push:*) is scoped, Bash and Bash(*) are not.
func (r *PermissionRule) Scoped() bool {
	s := strings.TrimSpace(r.Spec)
	return s != "" && s != "*" && s != ":*" && s != "**"
}

// TextEdit replaces a range of a file with new text.
type TextEdit struct {
	Loc     Loc
	NewText string
}

// ClaudeHook is a PreToolUse hook entry: it runs its handlers before
// every tool call its matcher selects; what they can answer (hooks.go)
// decides whether it asks the user, lets the call run without asking, or
// only blocks. The command is never kept (it can carry credentials).
type ClaudeHook struct {
	Event    string
	Matcher  string // regular expression over tool names; "" or "*" is every tool
	Loc      Loc
	Handlers []HookHandler
}

// hookHandler reads one element of a hook entry's "hooks" array.
func hookHandler(project string, x *JSONValue) HookHandler {
	typ, _ := x.Get("type").String()
	switch typ {
	case "", "command":
		cmd, _ := x.Get("command").String()
		cmd = strings.ReplaceAll(cmd, "${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PROJECT_DIR}")
		return ParseHookCommand(project, cmd)
	case "prompt", "agent":
		// A model decides: no person is asked, and a model's "ok" only
		// lets the call go on to the permission flow.
		return HookHandler{Type: typ}
	}
	return HookHandler{Type: typ, Unknown: fmt.Sprintf("is a hook of type %q, answered outside the tree", secret.Mask(typ))}
}

// Subagent is a .claude/agents/*.md file.
type Subagent struct {
	Name    string
	NameLoc Loc
	Loc     Loc // the frontmatter
	// Tools lists the frontmatter tools; AllTools is set when the key is
	// absent (the subagent inherits every tool, MCP tools included).
	Tools          []ToolName
	AllTools       bool
	Disallowed     []ToolName
	PermissionMode string
	ModeLoc        Loc
}

// ToolName is a tool named in a config, with where it is named.
type ToolName struct {
	Name string // Bash(git push:*) as written
	Tool string
	Spec string
	Loc  Loc
}

// ClaudeFileKind says what a path is to Claude Code: "settings", "agent"
// or "".
func ClaudeFileKind(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	base := path.Base(rel)
	if base == "managed-settings.json" && strings.HasPrefix(rel, "/") {
		return "settings" // managed settings, read with --user-config only
	}
	parts := strings.Split(rel, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] != ".claude" {
			continue
		}
		switch {
		case i == len(parts)-2 && (base == "settings.json" || base == "settings.local.json"):
			return "settings"
		case i+1 < len(parts)-1 && parts[i+1] == "agents" && strings.HasSuffix(base, ".md"):
			return "agent"
		}
		return ""
	}
	return ""
}

// ClaudeProject is the project directory a Claude Code file belongs to:
// the parent of its .claude directory, or the directory of a .mcp.json.
func ClaudeProject(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	parts := strings.Split(rel, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == ".claude" {
			if i == 0 {
				return "."
			}
			return strings.Join(parts[:i], "/")
		}
	}
	if ClaudePluginKind(rel) != "" {
		return pluginRoot(rel) // a plugin's files belong to its root
	}
	return path.Dir(rel)
}

// ParseRule splits a permission rule "Tool(spec)".
func ParseRule(rule string) (tool, spec string) {
	r := strings.TrimSpace(rule)
	if i := strings.IndexByte(r, '('); i > 0 && strings.HasSuffix(r, ")") {
		return strings.TrimSpace(r[:i]), r[i+1 : len(r)-1]
	}
	return r, ""
}

// ClaudeSettingsFile extracts a settings file.
func ClaudeSettingsFile(rel string, src []byte) *File {
	f := &File{Path: rel, Lang: LangJSON}
	cs := &ClaudeSettings{Local: path.Base(rel) == "settings.local.json"}
	cs.Scope, _ = ClaudeScope(rel)
	f.Claude = cs
	root := parseJSONFile(f, src)
	if root == nil {
		return f
	}
	d := jsonDoc{f, src}
	cs.DisabledMCPServers = root.Get("disabledMcpjsonServers").Strings()
	if pm := root.Member("permissions"); pm != nil {
		perms := pm.Value
		cs.Permissions = d.memberLoc(pm)
		if perms.Kind != JSONObject {
			f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(perms), Message: "permissions must be an object"})
		} else {
			for _, list := range []string{"allow", "ask", "deny"} {
				m := perms.Member(list)
				if m == nil {
					continue
				}
				if m.Value.Kind != JSONArray {
					f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(m.Value), Message: "permissions." + list + " must be an array of rule strings"})
					continue
				}
				for i, e := range m.Value.Elems {
					s, ok := e.String()
					if !ok {
						f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(e), Message: "permissions." + list + ": a rule must be a string"})
						continue
					}
					// A rule can carry a credential (Bash(curl -H 'Authorization:
					// Bearer …' *)): it is masked here so that no output holds it.
					// Only the quick fix's edits keep the text as written, since
					// they rewrite the user's own file.
					s = secret.Mask(s)
					tool, spec := ParseRule(s)
					r := &PermissionRule{List: list, Rule: s, Tool: tool, Spec: spec, Loc: d.valueLoc(e)}
					if list == "allow" && !IsUserFile(rel) { // no quick fix edits a file outside the workspace
						r.ToAsk = moveToAsk(d, perms, m, i)
					}
					cs.Rules = append(cs.Rules, r)
				}
			}
			if mm := perms.Member("defaultMode"); mm != nil {
				cs.DefaultMode, _ = mm.Value.String()
				cs.DefaultModeLoc = d.valueLoc(mm.Value)
			}
		}
	}
	if off := root.Get("disableAllHooks"); off != nil && off.Kind == JSONBool {
		cs.HooksOff = off.Bool
	}
	if hooks := root.Get("hooks"); hooks != nil && hooks.Kind == JSONObject {
		cs.Hooks = claudeHooks(rel, d, hooks)
	}
	return f
}

// claudeHooks reads the PreToolUse hooks of a hooks object (settings,
// a plugin's hooks/hooks.json or its plugin.json). A plugin's
// ${CLAUDE_PLUGIN_ROOT} is its root, the project its files are read in.
func claudeHooks(rel string, d jsonDoc, hooks *JSONValue) []*ClaudeHook {
	var out []*ClaudeHook
	pre := hooks.Get("PreToolUse")
	if pre == nil || pre.Kind != JSONArray {
		return nil
	}
	for _, h := range pre.Elems {
		if h.Kind != JSONObject {
			continue
		}
		inner := h.Get("hooks")
		if inner == nil || inner.Kind != JSONArray || len(inner.Elems) == 0 {
			continue // a matcher without handlers does nothing
		}
		matcher, _ := h.Get("matcher").String()
		ch := &ClaudeHook{Event: "PreToolUse", Matcher: secret.Mask(matcher), Loc: d.valueLoc(h)}
		for _, x := range inner.Elems {
			ch.Handlers = append(ch.Handlers, hookHandler(ClaudeProject(rel), x))
		}
		out = append(out, ch)
	}
	return out
}

// moveToAsk computes the edits that move allow[i] into the ask array.
func moveToAsk(d jsonDoc, perms *JSONValue, allow *JSONMember, i int) []TextEdit {
	elems := allow.Value.Elems
	e := elems[i]
	raw := string(d.src[e.Start:e.End])
	// Remove the element with one neighbouring comma so the array stays valid.
	var del TextEdit
	switch {
	case i+1 < len(elems):
		del = TextEdit{Loc: d.loc(e.Start, elems[i+1].Start)}
	case i > 0:
		del = TextEdit{Loc: d.loc(elems[i-1].End, e.End)}
	default:
		del = TextEdit{Loc: d.loc(e.Start, e.End)}
	}
	var ins TextEdit
	if ask := perms.Member("ask"); ask != nil && ask.Value.Kind == JSONArray {
		if n := len(ask.Value.Elems); n > 0 {
			last := ask.Value.Elems[n-1]
			ins = TextEdit{Loc: d.loc(last.End, last.End), NewText: ",\n" + d.indentAt(last.Start) + raw}
		} else {
			at := ask.Value.Start + 1
			ins = TextEdit{Loc: d.loc(at, at), NewText: raw}
		}
	} else {
		at := allow.Value.End
		ins = TextEdit{Loc: d.loc(at, at), NewText: ",\n" + d.indentAt(allow.KeyStart) + `"ask": [` + raw + "]"}
	}
	if ins.Loc.Start.Byte < del.Loc.Start.Byte {
		return []TextEdit{ins, del}
	}
	return []TextEdit{del, ins}
}

// indentAt returns the whitespace that starts the line holding off.
func (d jsonDoc) indentAt(off int) string {
	start := bytes.LastIndexByte(d.src[:off], '\n') + 1
	end := start
	for end < off && (d.src[end] == ' ' || d.src[end] == '\t') {
		end++
	}
	return string(d.src[start:end])
}

// ClaudeAgentFile extracts a subagent Markdown file: YAML frontmatter
// between "---" lines, then the system prompt (not kept).
func ClaudeAgentFile(rel string, src []byte) *File {
	f := &File{Path: rel, Lang: LangMarkdown, Lines: LineStarts(src)}
	fm, start, ok := frontmatter(src)
	if !ok {
		f.Problems = append(f.Problems, Problem{Loc: Loc{File: rel, Start: Point{Line: 1, Col: 1}, End: Point{Line: 1, Col: 1}},
			Message: "no YAML frontmatter (--- name/description/tools ---): Claude Code does not load this subagent"})
		return f
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		// Claude Code reads frontmatter that strict YAML rejects (an
		// unquoted colon in description: "Use when: ..."); so does acg,
		// line by line, for the keys it needs.
		if sa := lenientFrontmatter(f, src, fm, start); sa != nil {
			f.Subagent = sa
			return f
		}
		f.Problems = append(f.Problems, Problem{Loc: yamlErrLoc(f, src, start, err), Message: "invalid YAML frontmatter: " + yamlErrMsg(err)})
		return f
	}
	y := yamlDoc{f: f, src: src, base: start}
	sa := &Subagent{Loc: y.loc(start, start+len(fm)), AllTools: true}
	f.Subagent = sa
	m := yamlMapping(&doc)
	if m == nil {
		f.Problems = append(f.Problems, Problem{Loc: sa.Loc, Message: "the frontmatter must be a YAML mapping"})
		return f
	}
	if n := yamlGet(m, "name"); n != nil && n.Kind == yaml.ScalarNode {
		sa.Name, sa.NameLoc = n.Value, y.nodeLoc(n)
	}
	if sa.Name == "" {
		sa.Name = strings.TrimSuffix(path.Base(rel), ".md")
		sa.NameLoc = sa.Loc
		f.Problems = append(f.Problems, Problem{Loc: sa.Loc, Message: "the frontmatter has no name: Claude Code requires one (acg uses the file name)"})
	}
	if n := yamlGet(m, "tools"); n != nil {
		sa.AllTools = false
		sa.Tools = y.toolNames(n)
		if len(sa.Tools) == 1 && (sa.Tools[0].Name == "*") {
			sa.AllTools, sa.Tools = true, nil
		}
	}
	if n := yamlGet(m, "disallowedTools"); n != nil {
		sa.Disallowed = y.toolNames(n)
	}
	if n := yamlGet(m, "permissionMode"); n != nil && n.Kind == yaml.ScalarNode {
		sa.PermissionMode, sa.ModeLoc = n.Value, y.nodeLoc(n)
	}
	return f
}

// lenientFrontmatter reads the simple keys of a frontmatter that is not
// valid YAML, one `key: value` line each, the value running to the end of
// the line (colons included): name, description, tools, model and
// permissionMode. Indented and other lines are skipped. nil when it has no
// name line or a simple key's value starts with a YAML indicator (a flow
// collection, an alias, a block scalar): that file is broken, not merely
// unquoted.
func lenientFrontmatter(f *File, src, fm []byte, start int) *Subagent {
	y := yamlDoc{f: f, src: src, base: start}
	sa := &Subagent{Loc: y.loc(start, start+len(fm)), AllTools: true}
	off := start
	for _, line := range strings.SplitAfter(string(fm), "\n") {
		lineStart := off
		off += len(line)
		text := strings.TrimRight(line, "\r\n")
		key, val, ok := strings.Cut(text, ":")
		if !ok || key == "" || key != strings.TrimSpace(key) {
			continue
		}
		raw := val
		val = strings.TrimSpace(val)
		vstart := lineStart + len(key) + 1 + (len(raw) - len(strings.TrimLeft(raw, " \t")))
		if len(val) >= 2 && (val[0] == '"' && val[len(val)-1] == '"' || val[0] == '\'' && val[len(val)-1] == '\'') {
			val = val[1 : len(val)-1]
			vstart++
		}
		if val != "" && strings.ContainsRune("[{*&!|>%@`", rune(val[0])) {
			return nil // a broken collection, alias or block is broken for Claude Code too
		}
		loc := y.loc(vstart, vstart+len(val))
		switch key {
		case "name":
			sa.Name, sa.NameLoc = val, loc
		case "tools":
			sa.AllTools = false
			for _, part := range splitTools(val) {
				part = secret.Mask(strings.TrimSpace(part))
				if part == "" {
					continue
				}
				ploc := loc
				if i := strings.Index(val, part); i >= 0 {
					ploc = y.loc(vstart+i, vstart+i+len(part))
				}
				tool, spec := ParseRule(part)
				sa.Tools = append(sa.Tools, ToolName{Name: part, Tool: tool, Spec: spec, Loc: ploc})
			}
			if len(sa.Tools) == 1 && sa.Tools[0].Name == "*" {
				sa.AllTools, sa.Tools = true, nil
			}
		case "permissionMode":
			sa.PermissionMode, sa.ModeLoc = val, loc
		}
	}
	if sa.Name == "" {
		return nil
	}
	return sa
}

// frontmatter returns the YAML between a leading "---" line and the next
// "---" line, and the byte offset where it starts.
func frontmatter(src []byte) ([]byte, int, bool) {
	s := src
	off := 0
	if bytes.HasPrefix(s, []byte{0xEF, 0xBB, 0xBF}) {
		off = 3
	}
	nl := bytes.IndexByte(s[off:], '\n')
	if nl < 0 || strings.TrimSpace(string(s[off:off+nl])) != "---" {
		return nil, 0, false
	}
	start := off + nl + 1
	for i := start; i < len(s); {
		j := bytes.IndexByte(s[i:], '\n')
		line := s[i:]
		if j >= 0 {
			line = s[i : i+j]
		}
		if t := strings.TrimSpace(string(line)); t == "---" || t == "..." {
			return s[start:i], start, true
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return nil, 0, false
}

// yamlDoc converts yaml.v3 positions (1-based line and rune column within
// a document that starts at byte base of the file) into locations.
type yamlDoc struct {
	f    *File
	src  []byte
	base int
}

func (y yamlDoc) loc(start, end int) Loc {
	return Loc{File: y.f.Path, Start: PointAt(y.src, y.f.Lines, start), End: PointAt(y.src, y.f.Lines, end)}
}

// offset returns the byte offset of a yaml line/column.
func (y yamlDoc) offset(line, col int) int {
	baseLine := PointAt(y.src, y.f.Lines, y.base).Line
	li := int(baseLine) + line - 2
	if li < 0 || li >= len(y.f.Lines) {
		return y.base
	}
	off := y.f.Lines[li]
	for c := 1; c < col && off < len(y.src) && y.src[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(y.src[off:])
		off += size
	}
	return off
}

func (y yamlDoc) nodeLoc(n *yaml.Node) Loc {
	start := y.offset(n.Line, n.Column)
	end := start
	if n.Kind == yaml.ScalarNode {
		end = lineEnd(y.src, start)
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
			if l := start + len(n.Value); l <= end && n.Style == 0 {
				end = l
			}
		}
	}
	return y.loc(start, end)
}

func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		e := off + i
		if e > off && src[e-1] == '\r' {
			e--
		}
		return e
	}
	return len(src)
}

// toolNames reads a tools value: "Read, Grep, Bash(git push:*)" or a list.
func (y yamlDoc) toolNames(n *yaml.Node) []ToolName {
	var out []ToolName
	add := func(name string, loc Loc) {
		name = secret.Mask(strings.TrimSpace(name)) // as for permission rules
		if name == "" {
			return
		}
		tool, spec := ParseRule(name)
		out = append(out, ToolName{Name: name, Tool: tool, Spec: spec, Loc: loc})
	}
	switch n.Kind {
	case yaml.ScalarNode:
		start := y.offset(n.Line, n.Column)
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			start++
		}
		for _, part := range splitTools(n.Value) {
			i := bytes.Index(y.src[start:lineEnd(y.src, start)], []byte(part))
			loc := y.nodeLoc(n)
			if i >= 0 {
				loc = y.loc(start+i, start+i+len(part))
			}
			add(part, loc)
		}
	case yaml.SequenceNode:
		for _, e := range n.Content {
			if e.Kind == yaml.ScalarNode {
				add(e.Value, y.nodeLoc(e))
			}
		}
	}
	return out
}

// splitTools splits on commas outside parentheses: "Bash(a, b), Read".
func splitTools(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	out = append(out, strings.TrimSpace(s[start:]))
	return out
}

func yamlMapping(doc *yaml.Node) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	return n
}

func yamlGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// yamlErrLoc finds the line a yaml.v3 error names ("yaml: line 3: …").
func yamlErrLoc(f *File, src []byte, base int, err error) Loc {
	line := 0
	fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &line)
	y := yamlDoc{f: f, src: src, base: base}
	off := base
	if line > 0 {
		off = y.offset(line, 1)
	}
	return y.loc(off, lineEnd(src, off))
}

// yamlErrMsg is a YAML error for a message, without the line and without
// what the parser quotes from the input (an anchor's name, a value).
func yamlErrMsg(err error) string {
	msg := secret.DropQuoted(strings.TrimPrefix(err.Error(), "yaml: "))
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "line ") {
		msg = msg[i+2:]
	}
	return msg
}
