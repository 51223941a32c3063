package extract

// The Claude Agent SDK's options, shared by the Python and TypeScript front
// ends (ClaudeAgentOptions(allowed_tools=...) and query({ options: {
// allowedTools } })): the session's permission settings, read into the
// file's ClaudeSettings. Hooks and MCP servers, whose shapes differ by
// language, stay with each front end.

// SDKOptionNames are one language's names of the options read here.
type SDKOptionNames struct {
	Allowed, Disallowed, Tools, Mode, CanUseTool string
	// Lang names the language of a can_use_tool callback in the evidence.
	Lang string
}

// ReadSDKOptions reads the options get returns by name into f.Claude (made,
// at loc, when the file has none yet) and returns it: allowed and
// disallowed tools are allow and deny rules, the mode the default mode, a
// tools list the only built-in tools, and a can_use_tool callback a hook
// acg cannot read. A computed mode or allowed entry is read as
// bypassPermissions (fail closed), and the file says so.
func ReadSDKOptions(f *File, loc Loc, get func(string) *Expr, n SDKOptionNames) *ClaudeSettings {
	cs := f.Claude
	if cs == nil {
		cs = &ClaudeSettings{Scope: "project", Permissions: loc}
		f.Claude = cs
	}
	for _, list := range [][2]string{{n.Allowed, "allow"}, {n.Disallowed, "deny"}} {
		v := get(list[0])
		if v == nil {
			continue
		}
		rules, ok := SDKPermissionRules(v, list[1])
		cs.Rules = append(cs.Rules, rules...)
		if !ok && list[1] == "allow" {
			AssumeBypass(f, "an entry of "+n.Allowed+" is computed", v.Loc)
		}
	}
	if v := get(n.Tools); v != nil {
		// The only built-in tools; a preset or a computed list is every
		// one of them.
		if d := Deref(v); d != nil && d.Kind == ExprList {
			if names := Strings(d); len(names) == len(d.Elems) {
				cs.Tools = append([]string{}, names...)
			}
		}
	}
	if v := get(n.Mode); v != nil {
		if m, ok := Deref(v).StrValue(); ok {
			cs.DefaultMode, cs.DefaultModeLoc = m, v.Loc
		} else {
			AssumeBypass(f, n.Mode+" is computed", v.Loc)
		}
	}
	if v := get(n.CanUseTool); v != nil {
		// Called for every tool the rules and the mode do not settle.
		cs.Hooks = append(cs.Hooks, &ClaudeHook{Event: "PreToolUse", Loc: v.Loc,
			Handlers: []HookHandler{{Type: "callback", Unknown: "is the " + n.CanUseTool + " callback, " + n.Lang + " code the SDK calls"}}})
	}
	return cs
}

// AssumeBypass records options acg cannot read as bypassPermissions, the
// mode that asks nothing, and says why in the file's problems. f.Claude
// must be set.
func AssumeBypass(f *File, why string, at Loc) {
	f.Claude.DefaultMode, f.Claude.DefaultModeLoc = "bypassPermissions", at
	f.Problems = append(f.Problems, Problem{Loc: at, Message: why + ": acg assumes bypassPermissions (every tool runs without asking)"})
}

// SDKPermissionRules reads a list of permission rules as written ("Read",
// "Bash(npm test:*)", "mcp__github__create_issue") of a Claude Agent SDK
// session's options, Python or TypeScript, through splats of lists fixed
// in the source; ok is false when an entry cannot be read.
func SDKPermissionRules(v *Expr, list string) (out []*PermissionRule, ok bool) {
	ok = true
	var walk func(x *Expr, depth int)
	walk = func(x *Expr, depth int) {
		d := Deref(x)
		if d == nil || depth > 8 {
			ok = false
			return
		}
		switch d.Kind {
		case ExprList:
			for _, el := range d.Elems {
				walk(el, depth+1)
			}
		case ExprSplat:
			if len(d.Elems) == 0 {
				ok = false
				return
			}
			walk(d.Elems[0], depth+1)
		default:
			s, isStr := d.StrValue()
			if !isStr {
				ok = false
				return
			}
			tool, spec := ParseRule(s)
			out = append(out, &PermissionRule{List: list, Rule: s, Tool: tool, Spec: spec, Loc: x.Loc})
		}
	}
	walk(v, 0)
	return out, ok
}
