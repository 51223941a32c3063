package typescript

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// The Claude Agent SDK for TypeScript (@anthropic-ai/claude-agent-sdk;
// @anthropic-ai/claude-code before it) runs a Claude Code session:
// query({ prompt, options: { allowedTools, disallowedTools, permissionMode,
// tools, mcpServers, hooks, canUseTool } }). As in the Python front end
// (extract/python/claudesdk.go), the options are that session's settings:
// allowedTools are allow rules, disallowedTools deny rules,
// permissionMode the default mode, a tools list the only built-in tools.
// A PreToolUse hook or a canUseTool callback is code the SDK calls, which
// acg does not read (no approval; it may allow). A value acg cannot read
// fails closed: a computed permission mode or allowed-tools entry is read
// as bypassPermissions, and the file says so.

var claudeSDKModules = []string{"@anthropic-ai/claude-agent-sdk", "@anthropic-ai/claude-code"}

var tsOptions = extract.SDKOptionNames{Allowed: "allowedTools", Disallowed: "disallowedTools", Tools: "tools",
	Mode: "permissionMode", CanUseTool: "canUseTool", Lang: "TypeScript"}

func init() { adapters = append(adapters, claudeSDKQuery) }

func claudeSDKQuery(f *extract.File) {
	if !imports(f, claudeSDKModules...) {
		return
	}
	for _, c := range f.Calls() {
		if !memberOf(c.Qual, "query", claudeSDKModules...) || c.Expr == nil {
			continue
		}
		opts := objProp(c.Expr.Arg(0, ""), "options")
		if opts != nil && extract.Deref(opts).Kind != extract.ExprDict {
			if f.Claude == nil {
				f.Claude = &extract.ClaudeSettings{Scope: "project", Permissions: c.Loc}
			}
			extract.AssumeBypass(f, "the query options are computed", opts.Loc)
			continue
		}
		cs := extract.ReadSDKOptions(f, c.Loc, func(k string) *extract.Expr { return objProp(opts, k) }, tsOptions)
		if v := objProp(opts, "hooks"); v != nil {
			cs.Hooks = append(cs.Hooks, sdkHooks(v)...)
		}
		if v := objProp(opts, "mcpServers"); v != nil {
			sdkServers(f, c, v)
		}
	}
}

// sdkHooks reads hooks: { PreToolUse: [{ matcher: "Bash", hooks: [fn] }] }:
// each matcher is a hook of functions acg does not read. Events other than
// PreToolUse do not decide whether a tool runs.
func sdkHooks(v *extract.Expr) []*extract.ClaudeHook {
	d := extract.Deref(v)
	if d == nil || d.Kind != extract.ExprDict || d.Spread {
		return []*extract.ClaudeHook{{Event: "PreToolUse", Loc: v.Loc,
			Handlers: []extract.HookHandler{{Type: "callback", Unknown: "is a hooks value acg cannot read"}}}}
	}
	ms := extract.Deref(objProp(d, "PreToolUse"))
	if ms == nil {
		return nil
	}
	elems := []*extract.Expr{ms}
	if ms.Kind == extract.ExprList {
		elems = ms.Elems
	}
	var out []*extract.ClaudeHook
	for _, m := range elems {
		matcher, _ := objStr(extract.Deref(m), "matcher")
		out = append(out, &extract.ClaudeHook{Event: "PreToolUse", Matcher: matcher, Loc: m.Loc,
			Handlers: []extract.HookHandler{{Type: "callback", Unknown: "is a function the SDK calls"}}})
	}
	return out
}

// sdkServers reads mcpServers: { name: { command, args } | { type: "sse" |
// "http", url } }: the session's MCP servers, as a .mcp.json would list
// them. An in-process SDK server (createSdkMcpServer) or a computed entry
// is a server acg cannot follow: its tools fail closed.
func sdkServers(f *extract.File, c *extract.Call, v *extract.Expr) {
	if f.Client == nil {
		f.Client = &extract.Client{Name: "claude-code", Loc: v.Loc}
	}
	d := extract.Deref(v)
	if d == nil || d.Kind != extract.ExprDict || d.Spread {
		s := &extract.MCPServer{Framework: extract.FrameworkClaudeCode, Loc: v.Loc, NameLoc: v.Loc, Ctor: c.Expr, Name: "mcpServers",
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
		if t, _ := objStr(entry, "type"); t != "" {
			transport = strings.ToLower(t)
		}
		s := &extract.MCPServer{Framework: extract.FrameworkClaudeCode, Loc: d.Elems[i].Loc, NameLoc: k.Loc, Ctor: c.Expr, Name: name}
		s.ID = f.UniqueServerID(name)
		if entry != nil && entry.Kind == extract.ExprDict && transport != "sdk" {
			command, args := launchCommand(entry)
			url, _ := objStr(entry, "url")
			s.Launch = extract.NewLaunch(transport, command, args, url, envKeys(objProp(entry, "env")), nil)
		} else {
			s.Launch = extract.NewLaunch(transport, "", nil, "", nil, nil) // an SDK server or a computed entry
		}
		f.Client.Servers = append(f.Client.Servers, s)
	}
}
