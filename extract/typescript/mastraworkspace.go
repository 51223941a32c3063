package typescript

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Mastra workspaces (@mastra/core/workspace, checked against @mastra/core
// 1.71 dist/workspace): new Workspace({ filesystem, sandbox, tools }) gives
// every agent built with { workspace } the workspace's own tools — file
// tools when a filesystem is configured, command tools when a sandbox is
// (a sandbox runs model-chosen commands). The tools option renames a tool
// ({ name: "execute_command" }), turns it off ({ enabled: false }) or puts
// an approval before it ({ requireApproval: true }), per tool under its
// WORKSPACE_TOOLS key or for all of them at the top level. A setting acg
// cannot read (a function, a spread) changes nothing: the tool stays, with
// no approval (fail closed). The tools' labels are catalog entries
// (effects/catalog/tools.yaml, class mastra_workspace_*).
//
// An agent's defaultOptions.activeTools, a literal list of names, is the
// only tools the model may call (Agent.ActiveTools).

var mastraWorkspaceModules = []string{"@mastra/core/workspace", "@mastra/core"}

// workspaceTools are the workspace's tools by WORKSPACE_TOOLS group and
// key, with the provider each needs.
var workspaceTools = []struct{ group, key, name, needs string }{
	{"FILESYSTEM", "READ_FILE", "read_file", "filesystem"},
	{"FILESYSTEM", "WRITE_FILE", "write_file", "filesystem"},
	{"FILESYSTEM", "EDIT_FILE", "edit_file", "filesystem"},
	{"FILESYSTEM", "LIST_FILES", "list_files", "filesystem"},
	{"FILESYSTEM", "DELETE", "delete", "filesystem"},
	{"FILESYSTEM", "FILE_STAT", "file_stat", "filesystem"},
	{"FILESYSTEM", "MKDIR", "mkdir", "filesystem"},
	{"FILESYSTEM", "GREP", "grep", "filesystem"},
	{"FILESYSTEM", "AST_EDIT", "ast_edit", "filesystem"},
	{"SANDBOX", "EXECUTE_COMMAND", "execute_command", "sandbox"},
	{"SANDBOX", "GET_PROCESS_OUTPUT", "get_process_output", "sandbox"},
	{"SANDBOX", "KILL_PROCESS", "kill_process", "sandbox"},
}

// mastraWorkspace makes the tools of a new Workspace({...}) call.
func mastraWorkspace(f *extract.File, c *extract.Call) {
	opts := c.Expr.Arg(0, "")
	if extract.Deref(opts) == nil || extract.Deref(opts).Kind != extract.ExprDict {
		return // options acg cannot read: the agent's workspace stays unknown (fail closed)
	}
	cfg := objProp(opts, "tools")
	allApproved := flagApproval(cfg, "requireApproval", "require_approval")
	if on, known := extract.Deref(objProp(cfg, "enabled")).Truthy(); known && !on {
		return
	}
	for _, wt := range workspaceTools {
		if objProp(opts, wt.needs) == nil {
			continue
		}
		full := "mastra_workspace_" + wt.name
		setting := workspaceSetting(cfg, wt.group, wt.key, full)
		if on, known := extract.Deref(objProp(setting, "enabled")).Truthy(); known && !on {
			continue
		}
		name := full
		if s, ok := objStr(setting, "name"); ok && s != "" {
			name = s
		}
		t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkMastra, Kind: extract.ToolPrebuilt,
			Class: "@mastra/core/workspace." + full, Ctor: c.Expr, Loc: c.Loc, NameLoc: c.Loc}
		if a := flagApproval(setting, "requireApproval", "require_approval"); a != nil {
			t.Approvals = append(t.Approvals, a)
		} else if allApproved != nil {
			t.Approvals = append(t.Approvals, allApproved)
		}
		f.AddTool(t)
	}
}

// workspaceSetting is a tool's entry in the tools option: under its
// literal name or a computed key naming its WORKSPACE_TOOLS constant.
func workspaceSetting(cfg *extract.Expr, group, key, full string) *extract.Expr {
	d := extract.Deref(cfg)
	if d == nil || d.Kind != extract.ExprDict {
		return nil
	}
	for i, k := range d.Keys {
		if k == nil || i >= len(d.Elems) {
			continue
		}
		if s, ok := k.StrValue(); ok && s == full {
			return d.Elems[i]
		}
		if k.Kind == extract.ExprName && strings.HasSuffix(k.Name, "WORKSPACE_TOOLS."+group+"."+key) {
			return d.Elems[i]
		}
	}
	return nil
}

// activeTools reads defaultOptions.activeTools (Mastra) or activeTools
// (the AI SDK's call options; experimental_activeTools before AI SDK 5): a
// literal list of names, else nil.
func activeTools(opts *extract.Expr) []string {
	for _, v := range []*extract.Expr{objProp(objProp(opts, "defaultOptions"), "activeTools"), objProp(opts, "activeTools"), objProp(opts, "experimental_activeTools")} {
		if d := extract.Deref(v); d != nil && d.Kind == extract.ExprList {
			names := extract.Strings(d)
			if len(names) == len(d.Elems) {
				return names
			}
		}
	}
	return nil
}
