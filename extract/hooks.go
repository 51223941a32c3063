package extract

import (
	"bytes"
	"path"
	"regexp"
	"strings"

	"github.com/acg-dev/acg/internal/secret"
)

// Claude Code hooks, read statically (acg never runs them). A PreToolUse
// command hook gets the tool call as JSON on stdin and answers by its exit
// code (2 blocks the call) or by JSON on stdout:
// hookSpecificOutput.permissionDecision "allow" (skip the permission
// prompt), "deny" (block) or "ask" (ask the user), or the older
// decision "approve"/"block". A hook that answers nothing leaves Claude
// Code's permission flow as it was. So a hook is a human approval only when
// it can answer "ask", and it removes the default confirmation when it can
// answer "allow". What a hook can answer is read from the script its
// command runs, when that script is a file of the tree, or from the
// command itself when the command is the script (sh -c '…', echo '{…}').

// HookHandler is one handler of a hook entry. The command itself is not
// kept (it can carry credentials): only the script it runs, or what an
// inline script can answer, or why neither is known.
type HookHandler struct {
	// Type is command, prompt, agent or http.
	Type string
	// Script is the file of the tree the command runs, relative to the
	// scan root ("" when none).
	Script string
	// Inline is what the command can answer when it is its own script.
	Inline *HookScript
	// Unknown says why what the handler answers cannot be read: an
	// interpreter or binary acg cannot read, a path outside the tree, a
	// variable it cannot resolve, an http hook.
	Unknown string
}

// HookScript is what a hook script can answer, read from its text.
type HookScript struct {
	Ask   bool // permissionDecision "ask"
	Allow bool // permissionDecision "allow", decision "approve"
	Deny  bool // permissionDecision "deny", decision "block", exit code 2
}

// Answers lists what the script can answer, for messages.
func (h *HookScript) Answers() string {
	var out []string
	if h.Ask {
		out = append(out, `"ask"`)
	}
	if h.Allow {
		out = append(out, `"allow"`)
	}
	if h.Deny {
		out = append(out, "a block")
	}
	if len(out) == 0 {
		return "no permission decision"
	}
	return strings.Join(out, ", ")
}

var (
	// A quoted literal, its closing quote maybe escaped (JSON in a shell
	// string: \"ask\").
	reAskLit   = regexp.MustCompile(`["'\x60]ask\\?["'\x60]`)
	reAllowLit = regexp.MustCompile(`["'\x60](allow|approve)\\?["'\x60]`)
	reDenyLit  = regexp.MustCompile(`["'\x60](deny|block)\\?["'\x60]`)
	reExit2    = regexp.MustCompile(`\b(sys\.exit|os\._exit|process\.exit|exit|Deno\.exit)\s*\(?\s*2\b`)
	reDecision = regexp.MustCompile(`\b(permissionDecision|decision)\b`)
)

// ReadHookScript reads what a hook script can answer. Whole-line comments
// are left out (a comment that explains the JSON answers nothing); any
// other mention counts, so a value that may be "ask" or "allow" counts as
// both (fail closed for "allow", which removes a confirmation).
func ReadHookScript(src []byte) *HookScript {
	if !bytes.Contains(src, []byte("ecision")) && !bytes.Contains(src, []byte("xit")) {
		return &HookScript{} // most files: nothing to answer with
	}
	var code bytes.Buffer
	for _, line := range bytes.Split(src, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte("#")) || bytes.HasPrefix(t, []byte("//")) {
			continue
		}
		code.Write(line)
		code.WriteByte('\n')
	}
	text := code.Bytes()
	h := &HookScript{Deny: reExit2.Match(text)}
	if reDecision.Match(text) {
		h.Ask = reAskLit.Match(text)
		h.Allow = reAllowLit.Match(text)
		h.Deny = h.Deny || reDenyLit.Match(text)
	}
	return h
}

// HookScriptFile extracts a hook script that is not Python (a shell or
// JavaScript file under .claude/).
func HookScriptFile(rel string, src []byte) *File {
	return &File{Path: rel, Lang: LangText, Hook: ReadHookScript(src)}
}

// IsHookScript reports a file under a .claude directory that a hook can
// run: anything below a hooks directory there, or a script by its
// extension.
func IsHookScript(rel string) bool {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	parts := strings.Split(rel, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] != ".claude" {
			continue
		}
		for _, p := range parts[i+1 : len(parts)-1] {
			if p == "hooks" {
				return true
			}
		}
		switch path.Ext(rel) {
		case ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".py":
			return true
		}
		return false
	}
	return false
}

// interpreters run the script named by their first non-option argument.
var interpreters = map[string]bool{
	"python": true, "python3": true, "node": true, "bun": true, "deno": true, "tsx": true, "ts-node": true,
	"bash": true, "sh": true, "zsh": true, "dash": true, "ruby": true, "perl": true,
}

// shells run a command line given with -c.
var shells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true}

// inlineTools are commands whose whole behaviour is in the command line
// itself: a command made only of them is its own script.
var inlineTools = map[string]bool{
	"echo": true, "printf": true, "jq": true, "cat": true, "exit": true, "true": true, "false": true,
	"test": true, "[": true, "[[": true, "grep": true, "sed": true, "awk": true, "tee": true, "read": true,
	"if": true, "then": true, "else": true, "fi": true, "head": true, "tail": true, "tr": true, "cut": true,
	"date": true, ":": true, "mkdir": true, "touch": true, "cd": true,
}

// ParseHookCommand reads a command hook's command line: the script it runs
// (project is the directory $CLAUDE_PROJECT_DIR and relative paths stand
// for, relative to the scan root), or the command itself as the script.
func ParseHookCommand(project, command string) HookHandler {
	return parseHookCommand(project, command, 0)
}

func parseHookCommand(project, command string, depth int) HookHandler {
	h := HookHandler{Type: "command"}
	var unknown []string
	inline := true
	for _, seg := range splitShell(command) {
		words := shellWords(seg)
		for len(words) > 0 && isAssignment(words[0]) {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		prog := path.Base(words[0])
		switch {
		case prog == "uv" || prog == "uvx" || prog == "npx" || prog == "pnpm" || prog == "bunx":
			// uv run [--script] [options] x.py; npx tsx x.ts
			script, why := runnerScript(project, words)
			if why != "" {
				unknown = append(unknown, why)
			} else {
				h.Script, inline = script, false
			}
		case interpreters[prog] || strings.HasPrefix(prog, "python3."):
			args := words[1:]
			if prog == "deno" && len(args) > 0 && args[0] == "run" {
				args = args[1:]
			}
			if body, ok := flagValue(args, "-c", "-e", "--eval"); ok {
				inline = false
				if shells[prog] && depth < 3 {
					// sh -c '…' is a command line of its own: the scripts
					// it runs count, as in the hook's own command.
					in := parseHookCommand(project, body, depth+1)
					switch {
					case in.Unknown != "":
						unknown = append(unknown, in.Unknown)
					case in.Script != "":
						h.Script = in.Script
					}
					if in.Inline != nil {
						if h.Inline == nil {
							h.Inline = &HookScript{}
						}
						merge(h.Inline, in.Inline)
					}
					continue
				}
				if h.Inline == nil {
					h.Inline = &HookScript{}
				}
				merge(h.Inline, ReadHookScript([]byte(body)))
				continue
			}
			arg := firstArg(args)
			if arg == "" {
				unknown = append(unknown, "runs "+prog+" on its standard input")
				continue
			}
			script, why := inTree(project, arg)
			if why != "" {
				unknown = append(unknown, why)
			} else {
				h.Script, inline = script, false
			}
		case strings.ContainsAny(words[0], "/$") || hasScriptExt(words[0]):
			script, why := inTree(project, words[0])
			if why != "" {
				unknown = append(unknown, why)
			} else {
				h.Script, inline = script, false
			}
		case inlineTools[prog]:
		default:
			unknown = append(unknown, "runs "+prog+", a program outside the tree that acg cannot read")
		}
	}
	if len(unknown) > 0 {
		h.Unknown = secret.Mask(unknown[0]) // it quotes the command
		return h
	}
	if inline && h.Script == "" {
		h.Inline = ReadHookScript([]byte(command))
	}
	return h
}

func merge(into, h *HookScript) {
	into.Ask = into.Ask || h.Ask
	into.Allow = into.Allow || h.Allow
	into.Deny = into.Deny || h.Deny
}

// runnerScript finds the script of uv run / npx tsx and the like.
func runnerScript(project string, words []string) (string, string) {
	prog := path.Base(words[0])
	args := words[1:]
	if prog == "uv" || prog == "pnpm" {
		if len(args) == 0 || args[0] != "run" && args[0] != "exec" && args[0] != "dlx" {
			return "", "runs " + prog + " with no script acg can read"
		}
		args = args[1:]
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		// Options that take a value: uv run --with x, --python 3.12.
		switch args[0] {
		case "--with", "--python", "-p", "--project", "--directory", "--env-file", "--package", "--from", "--group", "--extra":
			if len(args) > 1 {
				args = args[1:]
			}
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return "", "runs " + prog + " with no script acg can read"
	}
	if n := path.Base(args[0]); interpreters[n] || strings.HasPrefix(n, "python3.") {
		if a := firstArg(args[1:]); a != "" {
			return inTree(project, a)
		}
	}
	if hasScriptExt(args[0]) || strings.Contains(args[0], "/") {
		return inTree(project, args[0])
	}
	return "", "runs " + prog + " " + args[0] + ", a package outside the tree that acg cannot read"
}

func firstArg(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-m" {
			return "" // a module: not a file acg can name
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return a
	}
	return ""
}

func flagValue(args []string, flags ...string) (string, bool) {
	for i, a := range args {
		for _, f := range flags {
			if a == f && i+1 < len(args) {
				return args[i+1], true
			}
		}
		if !strings.HasPrefix(a, "-") {
			return "", false
		}
	}
	return "", false
}

func hasScriptExt(w string) bool {
	switch path.Ext(w) {
	case ".py", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl":
		return true
	}
	return false
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	return i > 0 && !strings.ContainsAny(w[:i], "/$-.")
}

var reVar = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)

// inTree maps a script argument to a path of the tree, or says why not.
func inTree(project, arg string) (string, string) {
	p := reVar.ReplaceAllStringFunc(arg, func(v string) string {
		if reVar.FindStringSubmatch(v)[1] == "CLAUDE_PROJECT_DIR" {
			return "\x00"
		}
		return v
	})
	switch {
	case strings.HasPrefix(p, "\x00"):
		p = strings.TrimPrefix(strings.TrimPrefix(p, "\x00"), "/")
	case strings.HasPrefix(p, "~") || strings.Contains(p, "$HOME") || strings.Contains(p, "${HOME}"):
		return "", "runs " + arg + ", in the user's home outside the tree"
	case strings.Contains(p, "$"):
		return "", "runs " + arg + ", a path with a variable acg cannot resolve"
	case strings.HasPrefix(p, "/"):
		return "", "runs " + arg + ", an absolute path outside the tree"
	}
	if strings.Contains(p, "\x00") {
		return "", "runs " + arg + ", a path acg cannot resolve"
	}
	// Claude Code runs hooks in the project directory.
	full := path.Clean(path.Join(project, p))
	if full == ".." || strings.HasPrefix(full, "../") {
		return "", "runs " + arg + ", outside the tree"
	}
	return full, ""
}

// splitShell splits a command line at ; && || | and newlines outside
// quotes.
func splitShell(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				cur.WriteByte(c)
				i++
				c = s[i]
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '&' && (i > 0 && s[i-1] == '>' || i+1 < len(s) && s[i+1] == '>'):
			// 2>&1, &>file: a redirection, not a separator.
		case c == ';' || c == '\n' || c == '|' || c == '&':
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return append(out, cur.String())
}

// shellWords splits a simple command into words, removing quotes;
// redirections are dropped.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	flush := func() {
		if in {
			w := cur.String()
			if !strings.HasPrefix(w, ">") && !strings.HasPrefix(w, "<") && !strings.HasPrefix(w, "2>") && !strings.HasPrefix(w, "1>") {
				out = append(out, w)
			}
		}
		cur.Reset()
		in = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
				continue
			}
			if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				c = s[i]
			}
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			flush()
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	flush()
	return out
}
