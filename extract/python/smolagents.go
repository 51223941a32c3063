package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// smolagents (checked against huggingface/smolagents at 1.27.0.dev0,
// docs/frameworks.md): CodeAgent / ToolCallingAgent(tools=[...],
// managed_agents=[...], add_base_tools=, executor_type=,
// additional_authorized_imports=); @tool functions; Tool subclasses whose
// body is forward(); ManagedAgent(agent=..., name=, description=), the
// wrapper managed_agents took before smolagents 1.8, which stands for its
// agent. smolagents has no human-approval API: a CodeAgent runs
// the code the model writes by design, so it gets a direct tool for that
// code whose labels follow the executor (the executor kind and the imports
// it allows are the evidence).

func init() { adapters = append(adapters, smolTools, smolAgents) }

const smolFW = extract.FrameworkSmolagents

func smolTools(f *extract.File) {
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			if q, _ := decoratorTarget(d); extract.QualIs(q, "tool", "smolagents") {
				f.AddTool(&extract.Tool{Name: fn.Name, Symbol: fn.Name, Framework: smolFW, Kind: extract.ToolFunc, Func: fn,
					Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc})
			}
		}
	}
	for _, cl := range f.Classes {
		if !hasBase(cl, "Tool", "smolagents") {
			continue
		}
		t := &extract.Tool{Name: cl.Name, Symbol: cl.Name, Framework: smolFW, Kind: extract.ToolClass, Loc: cl.Loc, NameLoc: cl.NameLoc,
			Func: cl.Methods["forward"]}
		if s, ok := cl.Attrs["name"].StrValue(); ok {
			t.Name = s
		}
		f.AddTool(t)
	}
}

// smolUnsafeImports are modules whose import lets model-written code reach
// files, processes or the network directly.
var smolUnsafeImports = map[string]bool{"*": true, "os": true, "subprocess": true, "shutil": true, "socket": true,
	"requests": true, "urllib": true, "httpx": true, "aiohttp": true, "pathlib": true, "io": true, "builtins": true,
	"sys": true, "importlib": true, "ctypes": true, "pickle": true, "smtplib": true, "ftplib": true, "sqlite3": true}

func smolAgents(f *extract.File) {
	for _, c := range f.Calls() {
		if c.HeadKind == extract.HeadImport && extract.QualIs(c.Qual, "ManagedAgent", "smolagents") {
			if ref := c.Expr.Arg(0, "agent"); ref != nil {
				name, _ := extract.StrArg(c.Expr, 1, "name")
				if name == "" {
					name = ref.Name
				}
				f.AddTool(&extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: smolFW, Kind: extract.ToolAgent, Ctor: c.Expr,
					AgentRef: ref, Loc: c.Loc, NameLoc: c.Loc})
			}
			continue
		}
		if c.HeadKind != extract.HeadImport || !(extract.QualIs(c.Qual, "CodeAgent", "smolagents") || extract.QualIs(c.Qual, "ToolCallingAgent", "smolagents")) {
			continue
		}
		e := c.Expr
		ctor := extract.LastDot(c.Qual)
		a := &extract.Agent{Framework: smolFW, Ctor: ctor, Loc: c.Loc, Call: e, Var: c.AssignedTo}
		a.Name = agentName(e, c, ctor)
		if tl := e.Arg(0, "tools"); tl != nil {
			a.Tools = []extract.ToolRef{{Expr: tl}}
		}
		if m := e.Kwarg("managed_agents"); m != nil {
			a.SubAgents = []*extract.Expr{m}
		}
		if v, on := truthyArg(e, "add_base_tools"); on {
			// The toolbox of default_tools.TOOL_MAPPING; a CodeAgent already
			// runs Python, so it gets no interpreter tool.
			classes := []string{"DuckDuckGoSearchTool", "VisitWebpageTool"}
			if ctor == "ToolCallingAgent" {
				classes = append(classes, "PythonInterpreterTool")
			}
			for _, cls := range classes {
				a.Direct = append(a.Direct, &extract.Tool{ID: f.Path + "#" + a.Name + ":" + cls, Name: cls, Framework: smolFW,
					Kind: extract.ToolPrebuilt, Class: "smolagents." + cls, Loc: v.Loc, NameLoc: v.Loc})
			}
		}
		if ctor == "CodeAgent" {
			a.Direct = append(a.Direct, smolCodeTool(f, a, e))
		}
		f.AddAgent(a)
	}
}

// smolCodeTool is the code a CodeAgent's model writes and its executor runs.
func smolCodeTool(f *extract.File, a *extract.Agent, e *extract.Expr) *extract.Tool {
	kind := "local"
	loc := e.Loc
	if v := e.Kwarg("executor_type"); v != nil {
		loc = v.Loc
		if s, ok := extract.Deref(v).StrValue(); ok {
			kind = s
		} else {
			kind = "" // computed: fail closed
		}
	}
	var unsafe []string
	imports := e.Kwarg("additional_authorized_imports")
	for _, m := range extract.Strings(imports) {
		top, _, _ := strings.Cut(m, ".")
		if smolUnsafeImports[top] || strings.HasSuffix(m, "*") {
			unsafe = append(unsafe, m)
		}
	}
	if imports != nil && extract.Deref(imports).Kind != extract.ExprList {
		unsafe = append(unsafe, "a computed list")
	}
	declared := map[string]bool{"executes_code": true}
	detail := ""
	switch {
	case kind == "local" && len(unsafe) > 0:
		for _, l := range []string{"untrusted_input", "reads_private", "network_egress", "writes_state", "irreversible"} {
			declared[l] = true
		}
		detail = "catalog: CodeAgent runs model-written Python in this process (LocalPythonExecutor) with " +
			strings.Join(unsafe, ", ") + " importable: files, processes and the network are in reach"
		loc = imports.Loc
	case kind == "local":
		detail = "catalog: CodeAgent runs model-written Python in this process (LocalPythonExecutor, default imports: no file, process or network modules)"
	case kind == "e2b" || kind == "modal" || kind == "docker" || kind == "blaxel":
		declared["untrusted_input"], declared["network_egress"] = true, true
		detail = "catalog: CodeAgent runs model-written Python in a remote " + kind + " sandbox, which has network access but not this machine's files"
	default:
		for _, l := range []string{"untrusted_input", "reads_private", "network_egress", "writes_state", "irreversible"} {
			declared[l] = true
		}
		detail = "CodeAgent's executor_type is not a known literal: its code may do anything"
	}
	t := &extract.Tool{ID: f.Path + "#" + a.Name + ":python", Name: a.Name + ".python", Framework: smolFW, Kind: extract.ToolBuiltin,
		Loc: loc, NameLoc: loc, Declared: declared,
		Extra: map[extract.ExtraKey]string{extract.ExtraDetail: detail, extract.ExtraRoles: "python_repl execute_code", extract.ExtraDecidedBy: "catalog"}}
	if kind == "" {
		t.Extra[extract.ExtraDecidedBy] = "default"
	}
	return t
}
