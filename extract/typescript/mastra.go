package typescript

import "github.com/acg-dev/acg/extract"

// Mastra (@mastra/core 1.x): createTool({ id, description, inputSchema,
// execute, requireApproval }) and new Agent({ id, name, instructions,
// model, tools: { key: tool } }); tools are usually imported from other
// files (src/mastra/tools/*.ts), which resolution follows through the
// imports. Approval: requireApproval: true on the tool (the agent suspends
// before the call). requireToolApproval on one agent.stream/generate call
// gates that run only, not the agent wherever it runs, so it is not
// counted (fail closed).

var mastraTools = []string{"@mastra/core/tools", "@mastra/core"}
var mastraAgents = []string{"@mastra/core/agent", "@mastra/core"}

// Registered with the front end beside its own adapters (typescript.go).
func init() { adapters = append(adapters, MastraAdapter) }

// MastraAdapter finds Mastra's tools, agents and approvals in a file.
func MastraAdapter(f *extract.File) {
	for _, c := range f.Calls() {
		e := c.Expr
		switch {
		case memberOf(c.Qual, "createTool", mastraTools...):
			opts := e.Arg(0, "")
			name, ok := objStr(opts, "id")
			if !ok {
				name = fwVarName(c, "createTool")
			}
			t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: extract.FrameworkMastra, Kind: extract.ToolFunc,
				Func: fwFunc(f, objProp(opts, "execute")), FuncRef: objProp(opts, "execute"), Ctor: e, Loc: c.Loc, NameLoc: objKeyLoc(opts, "id")}
			if a := flagApproval(opts, "requireApproval", "require_approval"); a != nil {
				t.Approvals = append(t.Approvals, a)
			}
			f.AddTool(t)
		case memberOf(c.Qual, "Agent", mastraAgents...):
			opts := e.Arg(0, "")
			a := &extract.Agent{Framework: extract.FrameworkMastra, Ctor: "Agent", Loc: c.Loc, NameLoc: objKeyLoc(opts, "name"), Call: e, Var: c.AssignedTo}
			a.Name = fwVarName(c, "Agent")
			if s, ok := objStr(opts, "name"); ok && s != "" {
				a.Name = s
			} else if s, ok := objStr(opts, "id"); ok && s != "" {
				a.Name = s
			}
			a.Tools = toolRefs(objProp(opts, "tools"), "")
			if ws := objProp(opts, "workspace"); ws != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: ws})
			}
			a.ActiveTools = activeTools(opts)
			f.AddAgent(a)
		case memberOf(c.Qual, "Workspace", mastraWorkspaceModules...):
			mastraWorkspace(f, c)
		}
	}
}
