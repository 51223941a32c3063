package extract

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/acg-dev/acg/internal/secret"
)

// What a file says about MCP servers: defined in code or started by a
// client config; config readers and front ends share these facts.

// MCPServer is an MCP server: defined in code (Tools set) or started by a
// client (Launch set).
type MCPServer struct {
	ID   string
	Name string // config key, FastMCP("name"), MCPServerStdio(name=...)
	// Loc spans the config entry or the constructor call; NameLoc is the
	// config key (or the call).
	Loc, NameLoc Loc
	Framework    Framework
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
func NewLaunch(transport, command string, args []string, rawURL string, env, headers map[string]string) *Launch {
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
func ServerID(file, name string) string { return file + "#server:" + name }

func (e *Expr) NameOrEmpty() string {
	if e == nil || e.Kind != ExprName {
		return ""
	}
	return e.Name
}

// UniqueServerID is the id of a server named name in f: ServerID, with
// "~" added until no server of f has it yet.
func (f *File) UniqueServerID(name string) string {
	id := ServerID(f.Path, name)
	for f.ServerByID(id) != nil {
		id += "~"
	}
	return id
}

func (f *File) ServerByID(id string) *MCPServer {
	for _, s := range f.Servers {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// AnnotationHints records MCP tool annotations as declared hints. Only
// hints that announce an effect are kept (destructiveHint, readOnlyHint
// False, openWorldHint): a "safe" hint never removes a label. Shared by
// the front ends: an annotation object is a call's keywords (Python
// ToolAnnotations(...)) or an object/dict literal.
func AnnotationHints(t *Tool, ann *Expr) {
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
			t.Extra = map[ExtraKey]string{}
		}
		t.Extra[ExtraDecidedBy] = "annotation"
		t.Extra[ExtraDetail] = "MCP tool annotation " + strings.Join(said, ", ")
	}
}
