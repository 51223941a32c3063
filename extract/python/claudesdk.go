package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// The Claude Agent SDK (claude_agent_sdk; claude_code_sdk before it) runs
// a Claude Code session from Python, configured by
// ClaudeAgentOptions(allowed_tools=[...], disallowed_tools=[...],
// permission_mode=..., mcp_servers={...}, hooks={...}, can_use_tool=...).
// The options are that session's settings, so they are read as a Claude
// Code settings file of their own (the file's Claude, and its Client for
// the MCP servers): allowed_tools are allow rules, disallowed_tools deny
// rules, permission_mode the default mode, a tools list the only built-in
// tools. A PreToolUse hook or a
// can_use_tool callback is Python code the SDK calls: a hook acg cannot
// read (no approval; it may allow). A value acg cannot read fails
// closed: a computed permission mode or allowed-tools entry is read as
// bypassPermissions, and the file says so.

var claudeOptionTypes = []string{
	"claude_agent_sdk.ClaudeAgentOptions", "claude_agent_sdk.types.ClaudeAgentOptions",
	"claude_code_sdk.ClaudeCodeOptions", "claude_code_sdk.types.ClaudeCodeOptions",
}

var pythonOptions = extract.SDKOptionNames{Allowed: "allowed_tools", Disallowed: "disallowed_tools", Tools: "tools",
	Mode: "permission_mode", CanUseTool: "can_use_tool", Lang: "Python"}

func init() { adapters = append(adapters, claudeSDKOptions) }

func claudeSDKOptions(f *extract.File) {
	for _, c := range f.Calls() {
		if !claudeOptionsCall(c.Qual) || c.Expr == nil {
			continue
		}
		e := c.Expr
		cs := extract.ReadSDKOptions(f, c.Loc, e.Kwarg, pythonOptions)
		if v := e.Kwarg("hooks"); v != nil {
			cs.Hooks = append(cs.Hooks, sdkHooks(v)...)
		}
		if v := e.Kwarg("mcp_servers"); v != nil {
			sdkServers(f, c, v)
		}
	}
}

func claudeOptionsCall(q string) bool {
	for _, t := range claudeOptionTypes {
		if q == t {
			return true
		}
	}
	return false
}

// sdkHooks reads hooks={"PreToolUse": [HookMatcher(matcher="Bash",
// hooks=[fn])]}: each matcher is a hook of Python functions acg does not
// read. Events other than PreToolUse do not decide whether a tool runs.
func sdkHooks(v *extract.Expr) []*extract.ClaudeHook {
	d := extract.Deref(v)
	if d == nil || d.Kind != extract.ExprDict {
		return []*extract.ClaudeHook{{Event: "PreToolUse", Loc: v.Loc,
			Handlers: []extract.HookHandler{{Type: "callback", Unknown: "is a hooks value acg cannot read"}}}}
	}
	var out []*extract.ClaudeHook
	for i, k := range d.Keys {
		ev, _ := k.StrValue()
		if ev != "PreToolUse" || i >= len(d.Elems) {
			continue
		}
		ms := extract.Deref(d.Elems[i])
		var elems []*extract.Expr
		if ms != nil && ms.Kind == extract.ExprList {
			elems = ms.Elems
		} else {
			elems = []*extract.Expr{d.Elems[i]}
		}
		for _, m := range elems {
			matcher := ""
			if dm := extract.Deref(m); dm != nil && dm.Kind == extract.ExprCall {
				matcher, _ = extract.Deref(dm.Kwarg("matcher")).StrValue()
			}
			out = append(out, &extract.ClaudeHook{Event: ev, Matcher: matcher, Loc: m.Loc,
				Handlers: []extract.HookHandler{{Type: "callback", Unknown: "is a Python function the SDK calls"}}})
		}
	}
	return out
}

// sdkServers reads mcp_servers={name: {"command", "args"} | {"type":
// "sse"|"http", "url"}}: the session's MCP servers, as a .mcp.json would
// list them. A path to a config file or an in-process SDK server
// (create_sdk_mcp_server) is a server acg cannot follow: its tools fail
// closed.
func sdkServers(f *extract.File, c *extract.Call, v *extract.Expr) {
	if f.Client == nil {
		f.Client = &extract.Client{Name: "claude-code", Loc: v.Loc}
	}
	d := extract.Deref(v)
	if d == nil || d.Kind != extract.ExprDict {
		s := &extract.MCPServer{Framework: extract.FrameworkClaudeCode, Loc: v.Loc, NameLoc: v.Loc, Ctor: c.Expr, Name: "mcp_servers",
			Launch: extract.NewLaunch("stdio", "", nil, "", nil, nil)}
		s.ID = f.UniqueServerID(s.Name)
		f.Client.Servers = append(f.Client.Servers, s)
		return
	}
	for i, k := range d.Keys {
		name, ok := k.StrValue()
		if !ok || i >= len(d.Elems) {
			continue
		}
		entry := extract.Deref(d.Elems[i])
		transport := "stdio"
		if t, _ := extract.Deref(entry.Entry("type")).StrValue(); t != "" {
			transport = strings.ToLower(t)
		}
		s := &extract.MCPServer{Framework: extract.FrameworkClaudeCode, Loc: d.Elems[i].Loc, NameLoc: k.Loc, Ctor: c.Expr, Name: name}
		s.ID = f.UniqueServerID(name)
		if entry != nil && entry.Kind == extract.ExprDict {
			s.Launch = launchFromParams(entry, transport)
		} else {
			s.Launch = extract.NewLaunch(transport, "", nil, "", nil, nil) // an SDK server or a computed entry
		}
		f.Client.Servers = append(f.Client.Servers, s)
	}
}
