package effects

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Aliases map client tool names onto canonical roles (catalog/claude_code.yaml).
type Aliases struct {
	Tools       map[string]string `yaml:"tools"`
	ReadFamily  []string          `yaml:"read_family"`
	MCPOutbound struct {
		Verbs []string `yaml:"verbs"`
		Role  string   `yaml:"role"`
	} `yaml:"mcp_outbound"`
	ShellCommands []ShellCommand `yaml:"shell_commands"`
	// Shells run whatever program their arguments name (bash -c …,
	// python -c …): a rule that allows one allows any command.
	Shells []string `yaml:"shells"`
	// Runners are command prefixes whose free arguments name the code
	// they run (uv run …, npm exec …, bash -c …, git config alias.x '!…').
	Runners []string `yaml:"runners"`
}

// ShellCommand labels the commands a scoped Bash rule allows.
type ShellCommand struct {
	Command string  `yaml:"command"`
	Role    string  `yaml:"role"`
	Effects []Label `yaml:"effects"`
}

// Builtin returns the built-in tools of a client (builtin_tools provider).
func (c *Catalog) Builtin(provider string) *BuiltinProvider {
	for _, p := range c.Builtins {
		if p.Provider == provider {
			return p
		}
	}
	return nil
}

// BuiltinTool returns one built-in tool of a provider.
func (p *BuiltinProvider) Tool(name string) *CatalogTool {
	if p == nil {
		return nil
	}
	for _, t := range p.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

var gitPush = regexp.MustCompile(`(^|[\s;&|(])git\s+push(\s|$|:)`)

// AliasRoles returns the canonical roles of a Claude Code tool name, or of a
// permission rule `tool(spec)` (scanners.md §1.4). Names that no alias
// covers have none: roles never come from substrings of names.
func (c *Catalog) AliasRoles(tool, spec string) []string {
	al := c.Aliases
	if al == nil {
		return nil
	}
	if spec != "" {
		for _, r := range al.ReadFamily {
			if r == tool && secretPath.MatchString(strings.TrimSpace(spec)) {
				return []string{"read_secret_file"}
			}
		}
		if tool == "Bash" {
			if gitPush.MatchString(spec) {
				return []string{"git_push"}
			}
			if sc := c.ShellCommandFor(spec); sc != nil {
				if sc.Role == "" {
					return nil // a command that only computes (basename, tr): no role in any chain
				}
				return []string{sc.Role}
			}
		}
	}
	if r, ok := al.Tools[tool]; ok {
		return []string{r}
	}
	if server, name, ok := SplitMCPName(tool); ok && name != "" {
		if v := mcpVerb(server, name); v != "" {
			for _, verb := range al.MCPOutbound.Verbs {
				if v == verb {
					return []string{al.MCPOutbound.Role}
				}
			}
		}
	}
	return nil
}

// SplitMCPName splits a Claude Code MCP tool name mcp__<server>__<tool>
// (the tool part is empty for a whole-server rule mcp__<server>).
func SplitMCPName(n string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(n, "mcp__")
	if !ok || rest == "" {
		return "", "", false
	}
	server, tool, _ = strings.Cut(rest, "__")
	return server, tool, server != ""
}

// mcpServerNamed finds the catalogued server of an MCP tool whose server
// is configured outside the scanned tree (the user's own config), known
// only by the name in mcp__<server>__<tool>. The name must equal one of
// the server's package or image names exactly (users key a server by its
// package, "firecrawl-mcp"), and the tool must be one the server lists:
// a server named after nothing catalogued, or a tool the catalogued server
// does not have, stays unknown (fail closed). Catalog ids ("slack") are not
// names of one package, so they never match.
func (c *Catalog) mcpServerNamed(tool string) (*MCPServer, string) {
	server, name, ok := SplitMCPName(tool)
	if !ok || name == "" {
		return nil, ""
	}
	for _, s := range c.MCPServers {
		for _, m := range s.Match {
			if m == server && s.Tool(name) != nil {
				return s, name
			}
		}
	}
	return nil, ""
}

func serverOf(tool string) string {
	s, _, _ := SplitMCPName(tool)
	return s
}

// mcpVerb is the first token of the tool name that is not also a token of
// the server name: mcp__slack__slack_send_message -> "send".
func mcpVerb(server, tool string) string {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '_' || r == '-' })
	}
	st := map[string]bool{}
	for _, t := range split(server) {
		st[t] = true
	}
	for _, t := range split(tool) {
		if !st[t] {
			return t
		}
	}
	return ""
}

// ShellCommandFor finds the alias row of the command a scoped Bash rule
// allows, matching whole leading words ("git push" matches "git push
// origin", not "git pushy").
func (c *Catalog) ShellCommandFor(spec string) *ShellCommand {
	if c.Aliases == nil {
		return nil
	}
	cmd := strings.Fields(BashCommand(spec))
	var best *ShellCommand
	bestLen := 0
	for i := range c.Aliases.ShellCommands {
		sc := &c.Aliases.ShellCommands[i]
		want := strings.Fields(sc.Command)
		if len(want) == 0 || len(want) > len(cmd) || len(want) <= bestLen {
			continue
		}
		match := true
		for j, w := range want {
			if cmd[j] != w {
				match = false
				break
			}
		}
		if match {
			best, bestLen = sc, len(want)
		}
	}
	return best
}

// BashCommand is the command prefix of a Bash rule specifier: "git push:*"
// and "git push *" both allow commands starting with "git push".
// Leading environment assignments (LANG=C make test) are not the command:
// they are dropped, unless one holds a command substitution, which runs
// something itself.
func BashCommand(spec string) string {
	s := strings.TrimSpace(spec)
	s = strings.TrimSuffix(s, ":*")
	s = strings.TrimSuffix(s, " *")
	s = strings.TrimSuffix(s, "*")
	s = strings.TrimSpace(s)
	w := strings.Fields(s)
	i := 0
	for i < len(w) && isAssignment(w[i]) {
		i++
	}
	if i == 0 || i == len(w) {
		return s // nothing to drop, or an assignment alone (assignmentsOnly)
	}
	return strings.Join(w[i:], " ")
}

// isAssignment reports NAME=VALUE with a value that runs nothing.
func isAssignment(word string) bool {
	name, value, ok := strings.Cut(word, "=")
	if !ok || name == "" || strings.Contains(value, "$(") || strings.Contains(value, "`") {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// assignmentsOnly reports a command that only sets shell variables
// (EXIT_CODE=$?): it runs no program.
func assignmentsOnly(cmd string) bool {
	w := strings.Fields(cmd)
	for _, x := range w {
		if !isAssignment(x) {
			return false
		}
	}
	return len(w) > 0
}

// ClaudeTool labels a Claude Code tool: a built-in from the catalog, a
// scoped Bash rule from the shell command aliases, with alias roles added.
// Anything else is unknown (fail closed) and keeps its alias roles.
func (c *Catalog) ClaudeTool(tool, spec string, loc extract.Loc) *Effects {
	var e *Effects
	bi := c.Builtin("claude-code").Tool(tool)
	switch {
	case tool == "Bash" && assignmentsOnly(BashCommand(spec)):
		e = newEffects()
		e.settle(ByAlias) // sets shell variables, runs nothing
	case tool == "Bash" && c.Shell(spec):
		// As for a client's terminal tool: an interpreter or package
		// runner with free arguments runs any code, which is known, not
		// assumed.
		e = AnyCommand(fmt.Sprintf("Bash(%s) runs %q, which runs any code its arguments name", spec, BashCommand(spec)), loc)
	case tool == "Bash" && spec != "" && BashCommand(spec) != "":
		sc := c.commandRow(spec)
		if sc == nil {
			e = Unknown(fmt.Sprintf("Bash(%s) runs a command acg has no labels for: anything it can do is assumed", spec), loc)
			break
		}
		e = sc.effects("Bash("+spec+")", loc)
	case bi != nil:
		e = bi.EffectsOf("catalog: Claude Code built-in " + tool + " — " + bi.Summary)
		for _, r := range e.Labels {
			for i := range r.Evidence {
				r.Evidence[i].Loc = loc
			}
		}
	default:
		if sv, name := c.mcpServerNamed(tool); sv != nil {
			e = sv.ToolEffects(name, false, loc)
			for _, r := range e.Labels {
				for i := range r.Evidence {
					r.Evidence[i].Detail += fmt.Sprintf(" (its config is not in the scanned tree; the server name %q is the catalogued package)", serverOf(tool))
				}
			}
			break
		}
		e = Unknown("nothing is known about Claude Code tool "+tool, loc)
	}
	for _, r := range c.AliasRoles(tool, spec) {
		e.addRoleBy(r, ByAlias)
	}
	return e
}

// TerminalCommand labels a command a client's terminal tool may run
// without asking (VS Code chat.tools.terminal.autoApprove "git push"):
// the same shell command rows as a scoped Bash rule, else every label
// (fail closed). what names the setting for the evidence.
func (c *Catalog) TerminalCommand(cmd, what string, loc extract.Loc) *Effects {
	spec := BashCommand(cmd)
	var e *Effects
	switch sc := c.commandRow(spec); {
	case c.Shell(spec):
		e = AnyCommand(fmt.Sprintf("%s runs a shell (%q): any command it is given", what, spec), loc)
	case sc == nil:
		e = Unknown(fmt.Sprintf("%s runs %q, a command acg has no labels for: anything it can do is assumed", what, spec), loc)
	default:
		e = sc.effects(what, loc)
	}
	for _, r := range c.AliasRoles("Bash", spec) {
		e.addRoleBy(r, ByAlias)
	}
	return e
}

// AnyCommand labels a permission to run any command (a shell, a rule
// matching every command line): every label, by evidence rather than by
// the fail-closed default, like Claude Code's built-in Bash.
func AnyCommand(why string, loc extract.Loc) *Effects {
	e := newEffects()
	for _, l := range Labels {
		e.add(Evidence{Label: l, Kind: "alias", Loc: loc, Detail: "alias: " + why}, ByAlias)
	}
	e.settle(ByAlias)
	e.addRoleBy("shell_execute", ByAlias)
	return e
}

// Shell reports whether a command names a shell or interpreter that runs
// any command its arguments give (catalog aliases.shells): allowing it
// allows everything.
func (c *Catalog) Shell(cmd string) bool {
	prefix := BashCommand(cmd)
	w := strings.Fields(prefix)
	if c.Aliases == nil || len(w) == 0 {
		return false
	}
	if len(w) > 1 { // "python -m pytest" is scoped; "uv run" is not
		return slices.Contains(c.Aliases.Runners, strings.Join(w, " "))
	}
	return slices.Contains(c.Aliases.Shells, w[0])
}

// commandRow is the alias row of a command a rule allows (a Claude Code
// Bash rule, a terminal auto-approve entry); a git push spelled with
// options before the verb is git push. nil when no row lists it.
func (c *Catalog) commandRow(spec string) *ShellCommand {
	if c.Aliases == nil {
		return nil
	}
	sc := c.ShellCommandFor(spec)
	if gitPush.MatchString(spec) && (sc == nil || sc.Role != "git_push") {
		sc = c.shellRow("git push")
	}
	return sc
}

// effects are a row's labels, by alias; what names the rule or setting.
func (sc *ShellCommand) effects(what string, loc extract.Loc) *Effects {
	e := newEffects()
	for _, l := range sc.Effects {
		e.add(Evidence{Label: l, Kind: "alias", Loc: loc, Detail: fmt.Sprintf("alias: %s runs %q", what, sc.Command)}, ByAlias)
	}
	e.settle(ByAlias)
	return e
}

func (c *Catalog) shellRow(cmd string) *ShellCommand {
	for i := range c.Aliases.ShellCommands {
		if c.Aliases.ShellCommands[i].Command == cmd {
			return &c.Aliases.ShellCommands[i]
		}
	}
	return nil
}
