package resolve

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/internal/secret"
)

// Claude Code: one agent per project (the directory holding .claude/ or
// .mcp.json) with the built-in tools, the project's MCP servers, and a
// tool per scoped allow rule; one agent per subagent, spawned by the
// project agent through its Agent tool. Permissions decide the gates:
// deny removes a tool, an ask rule or a PreToolUse hook that can answer
// "ask" gates it, an allow rule, a hook that can answer "allow" (or a
// permissive defaultMode) lets it run without asking, and a tool that
// prompts by default is gated by that prompt. A hook that only blocks or
// logs changes none of that; one acg cannot read is no approval, may
// allow, and makes the findings on the tools it covers need review.

type claudeProject struct {
	dir      string
	settings []*extract.File // lowest scope first (extract.ClaudeScope)
	// user is ~/.claude.json (--user-config): its servers, after the
	// project's.
	user      *extract.File
	mcp       *extract.File
	subagents []*extract.File
	// A plugin's plugin.json (its inline servers are extra), and the
	// files that count only when it is there (agents/*.md, hooks.json).
	plugin     *extract.File
	candidates []*extract.File
}

// claudePerms is the merged permission state of a project.
type claudePerms struct {
	rules []*extract.PermissionRule
	mode  string
	modeL extract.Loc
	hooks []hookRead
	// disabled project MCP servers
	disabled map[string]bool
	// userRead: user-level files are merged in (--user-config).
	userRead bool
}

func (b *builder) resolveClaude(files []*extract.File) {
	projects := map[string]*claudeProject{}
	get := func(dir string) *claudeProject {
		if p := projects[dir]; p != nil {
			return p
		}
		p := &claudeProject{dir: dir}
		projects[dir] = p
		return p
	}
	// User-level files (--user-config) belong to every project: Claude
	// Code merges them into each session.
	var userSettings, userAgents []*extract.File
	var userJSON *extract.File
	for _, f := range files {
		if !extract.IsUserFile(f.Path) {
			continue
		}
		switch {
		case f.Claude != nil:
			userSettings = append(userSettings, f)
			if f.Client != nil {
				userJSON = f
			}
		case f.Subagent != nil:
			userAgents = append(userAgents, f)
		}
	}
	for _, f := range files {
		if extract.IsUserFile(f.Path) {
			continue
		}
		switch kind := extract.ClaudePluginKind(f.Path); {
		case kind == "plugin" && f.Plugin != nil:
			p := get(extract.ClaudeProject(f.Path))
			p.plugin = f
			if f.Claude != nil {
				p.candidates = append(p.candidates, f)
			}
		case kind == "marketplace":
			// Its plugins are read at their own paths.
		case kind == "hooks" && f.Claude != nil, kind == "agent" && f.Subagent != nil:
			p := get(extract.ClaudeProject(f.Path))
			p.candidates = append(p.candidates, f)
		case kind != "":
		case f.Claude != nil && f.Lang != extract.LangJSON:
			// Agent SDK options (claude_agent_sdk, the TypeScript query()
			// options): a session of its own,
			// with the MCP servers its options list.
			p := get(f.Path)
			p.settings = append(p.settings, f)
			if f.Client != nil {
				p.mcp = f
			}
		case f.Claude != nil:
			p := get(extract.ClaudeProject(f.Path))
			p.settings = append(p.settings, f)
		case f.Subagent != nil:
			p := get(extract.ClaudeProject(f.Path))
			p.subagents = append(p.subagents, f)
		case f.Client != nil && f.Client.Name == "claude-code":
			p := get(extract.ClaudeProject(f.Path))
			p.mcp = f
		}
	}
	for _, p := range projects {
		if p.plugin == nil {
			continue // agents/ and hooks/ of a directory that is no plugin
		}
		for _, f := range p.candidates {
			if f.Claude != nil {
				p.settings = append(p.settings, f)
			} else {
				p.subagents = append(p.subagents, f)
			}
		}
	}
	if len(userSettings)+len(userAgents) > 0 {
		if len(projects) == 0 {
			get(".") // a session in the scanned directory has the user's settings
		}
		for _, p := range projects {
			p.settings = append(append([]*extract.File{}, userSettings...), p.settings...)
			p.subagents = append(p.subagents, userAgents...)
			p.user = userJSON
		}
	}
	dirs := make([]string, 0, len(projects))
	for d := range projects {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		b.claudeProject(projects[d])
	}
}

func (b *builder) claudeProject(p *claudeProject) {
	// Lowest scope first, so that a later defaultMode (a higher scope)
	// wins: managed > local > project > user. Rules need no order: deny >
	// ask > allow across every scope.
	sort.SliceStable(p.settings, func(i, j int) bool {
		_, a := extract.ClaudeScope(p.settings[i].Path)
		_, b := extract.ClaudeScope(p.settings[j].Path)
		return a < b
	})
	sort.Slice(p.subagents, func(i, j int) bool { return p.subagents[i].Path < p.subagents[j].Path })
	perms := &claudePerms{disabled: map[string]bool{}}
	hooksOff := false
	for _, f := range p.settings {
		hooksOff = hooksOff || f.Claude.HooksOff
		perms.userRead = perms.userRead || extract.IsUserFile(f.Path)
	}
	for _, f := range p.settings {
		cs := f.Claude
		perms.rules = append(perms.rules, cs.Rules...)
		for _, h := range cs.Hooks {
			if !hooksOff { // disableAllHooks in any of the files stops them all
				perms.hooks = append(perms.hooks, b.readHook(f, h))
			}
		}
		if cs.DefaultMode != "" {
			perms.mode, perms.modeL = cs.DefaultMode, cs.DefaultModeLoc
		}
		for _, n := range cs.DisabledMCPServers {
			perms.disabled[n] = true
		}
	}
	// The agent is reported on the shared settings, else the local ones,
	// else .mcp.json, else the first subagent.
	var primary *extract.File
	var loc extract.Loc
	var own *extract.File // the first settings file of the project itself
	for _, f := range p.settings {
		if !extract.IsUserFile(f.Path) {
			own = f
			break
		}
	}
	switch {
	case own != nil:
		primary = own
		loc = primary.Claude.Permissions
	case p.mcp != nil:
		primary, loc = p.mcp, p.mcp.Client.Loc
	case p.plugin != nil && p.plugin.Client != nil && len(p.plugin.Client.Servers) > 0: // nil when it does not parse
		primary, loc = p.plugin, p.plugin.Client.Loc
	case len(p.subagents) > 0 && !extract.IsUserFile(p.subagents[0].Path):
		primary = p.subagents[0]
		loc = primary.Subagent.Loc
	case len(p.settings) > 0:
		primary = p.settings[len(p.settings)-1]
		loc = primary.Claude.Permissions
	case p.user != nil:
		primary, loc = p.user, p.user.Client.Loc
	case len(p.subagents) > 0:
		primary = p.subagents[0]
		loc = primary.Subagent.Loc
	default:
		return
	}
	if !loc.Valid() {
		loc = extract.Loc{File: primary.Path, Start: extract.Point{Line: 1, Col: 1}, End: extract.Point{Line: 1, Col: 1}}
	}
	main := &extract.Agent{ID: primary.Path + "#claude-code", Name: "claude-code", Framework: extract.FrameworkClaudeCode, Ctor: "claude-code",
		Loc: loc, NameLoc: loc}
	cm := &capgraph.Agent{ID: main.ID, Name: main.Name, Framework: main.Framework, Loc: loc, Src: main}
	b.agents[main] = cm

	cat := b.an.Catalog
	base := primary.Path
	// Every tool the session has, by the name Claude Code gives it.
	type ctool struct {
		name, tool, spec string
		node             *capgraph.Tool
		loc              extract.Loc
		// auto and raw: the server's own auto-approve setting and its name
		// for the tool (MCP tools of .mcp.json only).
		auto *extract.AutoApprove
		raw  string
		file *extract.File // the config that starts the server
	}
	var all []ctool
	builtinNode := func(name string) *capgraph.Tool {
		l := loc
		for _, r := range perms.rules {
			if r.Tool == name && r.Spec == "" {
				l = r.Loc
				break
			}
		}
		t := &extract.Tool{ID: base + "#" + name, Name: name, Framework: extract.FrameworkClaudeCode, Kind: extract.ToolBuiltin, Loc: l, NameLoc: l}
		if name == "Bash" {
			t.Extra = map[extract.ExtraKey]string{extract.ExtraShell: "unscoped"}
		}
		return b.addResolved(t, cat.ClaudeTool(name, "", l))
	}
	// The built-in tools the session has: all of them, unless a settings
	// file names the only ones (the Agent SDK's tools option).
	var only map[string]bool
	for _, f := range p.settings {
		if f.Claude.Tools != nil {
			only = map[string]bool{}
			for _, n := range f.Claude.Tools {
				only[n] = true
			}
		}
	}
	has := func(tool string) bool { return only == nil || only[tool] }
	if bi := cat.Builtin("claude-code"); bi != nil {
		for _, t := range bi.Tools {
			if t.NamedOnly || !has(t.Name) {
				continue // legacy names and tools of some versions: known when named
			}
			all = append(all, ctool{name: t.Name, tool: t.Name, node: builtinNode(t.Name), loc: loc})
		}
	}
	scopedNode := func(file, name, tool, spec string, l extract.Loc) *capgraph.Tool {
		t := &extract.Tool{ID: file + "#" + name, Name: name, Framework: extract.FrameworkClaudeCode, Kind: extract.ToolBuiltin, Loc: l, NameLoc: l}
		if tool == "Bash" && !scoped(spec) {
			t.Extra = map[extract.ExtraKey]string{extract.ExtraShell: "unscoped"}
		}
		return b.addResolved(t, cat.ClaudeTool(tool, spec, l))
	}
	// Project MCP servers: mcp__<server>__<tool>.
	servers := map[string]bool{}
	var configs []*extract.File
	if p.mcp != nil {
		configs = append(configs, p.mcp)
	}
	if p.plugin != nil && p.plugin.Client != nil {
		configs = append(configs, p.plugin) // its inline mcpServers
	}
	if p.user != nil && p.user.Client != nil {
		configs = append(configs, p.user) // ~/.claude.json: local and user servers
	}
	for _, cf := range configs {
		for _, sv := range cf.Client.Servers {
			if servers[sv.Name] && extract.IsUserFile(cf.Path) {
				continue // a project server of the same name is the one started
			}
			servers[sv.Name] = true
			if perms.disabled[sv.Name] {
				continue
			}
			for _, st := range b.serverTools(sv, "claude-code") {
				name := mcpName("claude-code", sv.Name, st.raw)
				all = append(all, ctool{name: name, tool: name, node: st.tool, loc: sv.NameLoc, auto: sv.AutoApprove, raw: st.raw, file: cf})
				if st.tool.Kind == extract.ToolMCP { // code in the tree has roles of its own
					b.aliasRoles(st.tool, name, "")
				}
			}
		}
	}
	// Allow rules name tools of their own: a scoped rule is a narrower
	// tool that runs without asking; an MCP tool of a server configured
	// outside the project is known only by its rule.
	for _, f := range p.settings {
		for _, r := range f.Claude.Rules {
			if r.List != "allow" {
				continue
			}
			server, _, isMCP := effects.SplitMCPName(r.Tool)
			switch {
			case isMCP && !servers[server]:
				n := scopedNode(f.Path, r.Rule, r.Tool, "", r.Loc)
				all = append(all, ctool{name: r.Rule, tool: r.Tool, node: n, loc: r.Loc})
			case !isMCP && r.Scoped() && has(r.Tool):
				n := scopedNode(f.Path, r.Rule, r.Tool, r.Spec, r.Loc)
				all = append(all, ctool{name: r.Rule, tool: r.Tool, spec: r.Spec, node: n, loc: r.Loc})
			}
		}
	}
	hasAgentTool := false
	for _, t := range all {
		use, ok := b.claudeUse(cm, t.tool, t.spec, t.node, perms, perms.mode, perms.modeL, t.loc)
		if !ok {
			continue
		}
		autoApproved(&use, t.auto, t.raw, t.file, t.name)
		if t.tool == "Agent" && t.spec == "" {
			hasAgentTool = true
		}
		b.uses = append(b.uses, use)
	}
	// Subagents.
	for _, f := range p.subagents {
		sa := f.Subagent
		if sa == nil {
			continue
		}
		a := &extract.Agent{ID: f.Path + "#" + sa.Name, Name: sa.Name, Framework: extract.FrameworkClaudeCode, Ctor: "subagent",
			Loc: sa.NameLoc, NameLoc: sa.NameLoc}
		ca := &capgraph.Agent{ID: a.ID, Name: a.Name, Framework: a.Framework, Loc: sa.NameLoc, Src: a}
		b.agents[a] = ca
		if hasAgentTool {
			b.links = append(b.links, capgraph.Link{From: cm.ID, To: ca.ID, Kind: capgraph.EdgeSubAgent, Loc: sa.NameLoc})
		}
		mode, modeL := perms.mode, perms.modeL
		if sa.PermissionMode != "" {
			mode, modeL = sa.PermissionMode, sa.ModeLoc
		}
		disallowed := func(tool, spec string) bool {
			for _, d := range sa.Disallowed {
				if d.Tool == tool && (d.Spec == "" || d.Spec == spec) {
					return true
				}
				if s, _, ok := effects.SplitMCPName(tool); ok && d.Tool == "mcp__"+s {
					return true
				}
			}
			return false
		}
		var mine []ctool
		if sa.AllTools {
			mine = all
		} else {
			for _, tn := range sa.Tools {
				found := false
				want := tn.Tool
				if bt := cat.Builtin("claude-code").Tool(want); bt != nil && bt.LegacyOf != "" {
					want = bt.LegacyOf // Task is Agent, MultiEdit is Edit
				}
				// A subagent has the project's permission rules: the tool
				// it lists reaches the project's tool of the same spec and
				// every narrower tool an allow rule made (plain Bash runs
				// each allowed Bash(<command>) unasked and asks for the
				// rest).
				listed := &extract.PermissionRule{Tool: want, Spec: tn.Spec}
				for _, t := range all {
					same := t.tool == want && t.spec == tn.Spec
					narrower := t.tool == want && t.spec != "" && ruleCovers(listed, t.tool, t.spec)
					server := tn.Spec == "" && strings.HasPrefix(t.tool, tn.Tool+"__") && strings.HasPrefix(tn.Tool, "mcp__")
					found = found || same || server
					if same || narrower || server {
						mine = append(mine, ctool{name: t.name, tool: t.tool, spec: t.spec, node: t.node, loc: tn.Loc, auto: t.auto, raw: t.raw})
					}
				}
				if !found { // a narrower allowed tool does not stand for the listed one
					mine = append(mine, ctool{name: tn.Name, tool: tn.Tool, spec: tn.Spec, node: scopedNode(f.Path, tn.Name, tn.Tool, tn.Spec, tn.Loc), loc: tn.Loc})
				}
			}
		}
		for _, t := range mine {
			if disallowed(t.tool, t.spec) {
				continue
			}
			if use, ok := b.claudeUse(ca, t.tool, t.spec, t.node, perms, mode, modeL, t.loc); ok {
				autoApproved(&use, t.auto, t.raw, t.file, t.name)
				b.uses = append(b.uses, use)
			}
		}
	}
}

// autoApproved drops the default permission prompt of an MCP tool whose
// server entry says to run it without asking (autoApprove, alwaysAllow,
// trust): Claude Code itself ignores those keys, but a file that carries
// them is shared with a client that honours them, and an approval is only
// counted where nothing says it is off (fail closed).
func autoApproved(use *capgraph.Use, auto *extract.AutoApprove, raw string, mcp *extract.File, name string) {
	if !auto.Covers(raw) || mcp == nil {
		return
	}
	var kept []*extract.Approval
	for _, g := range use.Gates {
		if g.Kind != "permission_prompt" {
			kept = append(kept, g)
		}
	}
	if len(kept) == len(use.Gates) {
		return // an ask rule or a hook still asks
	}
	use.Gates = kept
	use.Grants = append(use.Grants, autoGrant(auto, mcp.Path, name))
}

// scoped reports whether a specifier narrows its tool (Bash(*) does not).
func scoped(spec string) bool {
	s := strings.TrimSpace(spec)
	return s != "" && s != "*" && s != ":*" && s != "**"
}

// aliasRoles adds a tool's alias roles (an MCP tool named mcp__slack__slack_send_message).
func (b *builder) aliasRoles(t *capgraph.Tool, name, spec string) {
	for _, r := range b.an.Catalog.AliasRoles(name, spec) {
		t.Effects.AddRole(r, effects.ByAlias)
	}
}

// claudeUse decides whether an agent may use a tool under the project's
// permissions and what gates it: deny > ask > allow, then the mode, then
// the tool's default prompt. ok is false when the tool is denied.
func (b *builder) claudeUse(a *capgraph.Agent, tool, spec string, node *capgraph.Tool, perms *claudePerms, mode string, modeL, where extract.Loc) (capgraph.Use, bool) {
	use := capgraph.Use{Agent: a.ID, Tool: node.ID, Loc: where}
	label := tool
	if spec != "" {
		label = tool + "(" + spec + ")"
	}
	for _, r := range perms.rules {
		if r.List == "deny" && ruleCovers(r, tool, spec) {
			return use, false
		}
	}
	for _, r := range perms.rules {
		if r.List == "ask" && ruleCovers(r, tool, spec) {
			use.Gates = append(use.Gates, &extract.Approval{Kind: "ask_rule", Loc: r.Loc, All: true,
				Detail: fmt.Sprintf("the ask rule %q makes Claude Code ask before %s", r.Rule, label)})
			return use, true
		}
	}
	// Every hook whose matcher selects the tool runs; Claude Code asks when
	// one of them answers "ask" (deny and ask rules apply whatever a hook
	// answers, so rules come first).
	var allows, unknown []hookRead
	for _, h := range perms.hooks {
		if !hookMatches(h.h.Matcher, tool) {
			continue
		}
		switch {
		case h.ask:
			use.Gates = append(use.Gates, &extract.Approval{Kind: "pretooluse_hook", Loc: h.h.Loc, All: true,
				Detail: fmt.Sprintf("%s can answer \"ask\": Claude Code asks the user before %s", h.about(), label)})
			return use, true
		case h.unknown != "":
			unknown = append(unknown, h)
		case h.allow:
			allows = append(allows, h)
		}
	}
	if len(unknown) > 0 {
		use.Unsure = fmt.Sprintf("%s %s, so whether it asks before %s is not known", unknown[0].about(), unknown[0].unknown, label)
	}
	for _, r := range perms.rules {
		if r.List == "allow" && ruleCovers(r, tool, spec) {
			why := fmt.Sprintf("allowed without asking by the rule %q", r.Rule)
			if extract.IsUserFile(r.Loc.File) {
				why += " in " + r.Loc.File // a user-level scope (--user-config): say which file
			}
			use.Grants = append(use.Grants, capgraph.Grant{Loc: r.Loc, Fix: r.ToAsk, Why: why})
		}
	}
	if len(use.Grants) > 0 {
		use.Loc = use.Grants[0].Loc
		return use, true
	}
	prompts := isEditTool(tool) // every file edit asks in the default mode, legacy names too
	if bi := b.an.Catalog.Builtin("claude-code").Tool(tool); bi != nil {
		prompts = prompts || bi.Prompts
	} else if _, _, isMCP := effects.SplitMCPName(tool); isMCP || node.Kind == extract.ToolMCP {
		prompts = true
	} else if node.Src != nil && node.Src.Framework == extract.FrameworkMCP {
		prompts = true
	}
	if !prompts {
		return use, true
	}
	if mode == "bypassPermissions" {
		// No prompt is left for a hook's "allow" to skip: the mode lets
		// every call through, whatever the hooks answer; a hook acg cannot
		// read may still ask or block (use.Unsure says so).
		use.Loc = modeL
		use.Grants = []capgraph.Grant{{Loc: modeL, Why: "permission mode bypassPermissions skips every permission prompt" + inUserFile(modeL)}}
		return use, true
	}
	// A hook that can answer "allow" skips the prompt for the calls it
	// allows, and one acg cannot read may: either way the prompt is not
	// counted (fail closed), and the grant is partial (not every call).
	if len(allows) > 0 || len(unknown) > 0 {
		var g capgraph.Grant
		if len(allows) > 0 {
			g = capgraph.Grant{Loc: allows[0].h.Loc, Partial: true,
				Why: fmt.Sprintf("%s can answer \"allow\", which skips Claude Code's permission prompt before %s", allows[0].about(), label)}
		} else {
			g = capgraph.Grant{Loc: unknown[0].h.Loc, Partial: true,
				Why: fmt.Sprintf("%s %s; it may answer \"allow\", which skips Claude Code's permission prompt before %s", unknown[0].about(), unknown[0].unknown, label)}
		}
		use.Grants = []capgraph.Grant{g}
		use.Loc = g.Loc
		return use, true
	}
	switch mode {
	case "acceptEdits":
		if isEditTool(tool) {
			use.Grants = []capgraph.Grant{{Loc: modeL, Why: "permission mode acceptEdits accepts file edits without asking" + inUserFile(modeL)}}
			return use, true
		}
	case "dontAsk":
		return use, false // prompts are refused: only allowed tools run
	}
	at := modeL
	if !at.Valid() {
		at = a.Loc
	}
	use.Gates = append(use.Gates, &extract.Approval{Kind: "permission_prompt", Loc: at, All: true,
		Detail: fmt.Sprintf("Claude Code asks before %s: no allow rule covers it (%s)", label, userNote(perms))})
	return use, true
}

// inUserFile names a user-level file a setting came from (--user-config),
// with ~: the project's own files need no naming.
func inUserFile(l extract.Loc) string {
	if extract.IsUserFile(l.File) {
		return " (set in " + l.File + ")"
	}
	return ""
}

// userNote says whether the user-level scopes were read.
func userNote(perms *claudePerms) string {
	if perms.userRead {
		return "the user-level settings read with --user-config included"
	}
	return "user-level settings outside the project are not seen"
}

// isEditTool: the tools acceptEdits accepts and Edit rules cover.
func isEditTool(tool string) bool {
	return tool == "Edit" || tool == "Write" || tool == "NotebookEdit" || tool == "MultiEdit"
}

// ruleCovers reports whether a permission rule applies to a tool use.
func ruleCovers(r *extract.PermissionRule, tool, spec string) bool {
	rt := r.Tool
	if rt != tool {
		switch {
		case rt == "Edit" && (tool == "Write" || tool == "NotebookEdit" || tool == "MultiEdit"):
		case rt == "Read" && (tool == "Grep" || tool == "Glob"):
		case rt == "Agent" && tool == "Task", rt == "Task" && tool == "Agent":
		default:
			s, _, ok := effects.SplitMCPName(tool)
			rs, rtool, rok := effects.SplitMCPName(rt)
			if !ok || !rok || rs != s || (rtool != "" && rtool != "*") {
				return false
			}
			return true
		}
	}
	if !scoped(r.Spec) {
		return true
	}
	if spec == "" {
		return false // a scoped rule covers only part of an unscoped tool
	}
	if r.Spec == spec {
		return true
	}
	if tool == "Bash" {
		pre := effects.BashCommand(r.Spec)
		cmd := effects.BashCommand(spec)
		prefix := strings.HasSuffix(strings.TrimSpace(r.Spec), "*")
		return prefix && (cmd == pre || strings.HasPrefix(cmd, pre+" "))
	}
	return false
}

// hookMatches applies a PreToolUse matcher: empty or "*" is every tool,
// otherwise a regular expression over the whole tool name.
func hookMatches(matcher, tool string) bool {
	m := strings.TrimSpace(matcher)
	if m == "" || m == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + m + ")$")
	if err != nil {
		return m == tool
	}
	return re.MatchString(tool)
}

// hookRead is what a PreToolUse hook entry can answer, read from the
// scripts its handlers run (extract/hooks.go).
type hookRead struct {
	h          *extract.ClaudeHook
	ask, allow bool
	// unknown says why what a handler answers cannot be read ("" when
	// every handler was read).
	unknown string
	scripts []string
}

// about names the hook in messages.
func (h hookRead) about() string {
	s := fmt.Sprintf("the PreToolUse hook (matcher %q)", h.h.Matcher)
	if len(h.scripts) > 0 {
		s += " running " + secret.Mask(strings.Join(h.scripts, ", "))
	}
	return s
}

// readHook reads each handler of a hook entry: the script it runs is
// looked up in the tree (the lookup is recorded, so that an edit of the
// script rebuilds the project), an inline script was read with the
// settings. A prompt or agent hook has a model decide: no person is
// asked, and it allows nothing on its own.
func (b *builder) readHook(settings *extract.File, h *extract.ClaudeHook) hookRead {
	hr := hookRead{h: h}
	for _, x := range h.Handlers {
		var ans *extract.HookScript
		switch {
		case x.Unknown != "":
			if hr.unknown == "" {
				hr.unknown = "cannot be read by acg (it " + x.Unknown + ")"
			}
			continue
		case x.Script != "":
			hr.scripts = append(hr.scripts, x.Script)
			f := b.ix.fileAt(x.Script, settings)
			switch {
			case f == nil && (extract.IsHookScript(x.Script) || strings.HasSuffix(x.Script, ".py")):
				if hr.unknown == "" {
					hr.unknown = "cannot be read by acg (the script is not in the scanned tree)"
				}
				continue
			case f == nil || f.Hook == nil:
				if hr.unknown == "" {
					hr.unknown = "cannot be read by acg (acg reads a hook script only when it is a Python file or under .claude/)"
				}
				continue
			}
			ans = f.Hook
		case x.Inline != nil:
			ans = x.Inline
		default:
			continue
		}
		hr.ask = hr.ask || ans.Ask
		hr.allow = hr.allow || ans.Allow
	}
	return hr
}
