package python

import (
	"path"
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// CrewAI: Agent(role=, tools=, allow_delegation=), Task(tools=,
// human_input=), Crew(agents=, tasks=, process=), @tool functions and
// BaseTool subclasses from crewai.tools, @CrewBase classes whose agents and
// tasks come from config/agents.yaml and config/tasks.yaml, and the
// pre-tool hooks (@before_tool_call, @on(PRE_TOOL_CALL)) that ask a human
// or block. Task(human_input=True) reviews a task's output after its tools
// ran, so it is recorded but is not a gate. Crew membership, delegation
// and YAML names are resolved by the workspace (package incremental).

func init() { treeAdapters = append(treeAdapters, crewAI) }

var crewTops = []string{"crewai", "crewai_tools"}

func crewAI(f *extract.File, root *syntax.Node, src []byte) {
	cf := &extract.CrewFacts{}
	crewTools(f)
	for _, cl := range f.Classes {
		if !hasDecorator(cl.Decorators, "CrewBase") {
			continue
		}
		cc := &extract.CrewClass{Name: cl.Name, ToolMethods: map[string]*extract.Func{},
			AgentsConfig: "config/agents.yaml", TasksConfig: "config/tasks.yaml"}
		if s, ok := extract.Deref(cl.Attrs["agents_config"]).StrValue(); ok {
			cc.AgentsConfig = s
		}
		if s, ok := extract.Deref(cl.Attrs["tasks_config"]).StrValue(); ok {
			cc.TasksConfig = s
		}
		dir := path.Dir(f.Path)
		cc.AgentsConfig = path.Join(dir, cc.AgentsConfig)
		cc.TasksConfig = path.Join(dir, cc.TasksConfig)
		for name, m := range cl.Methods {
			for _, d := range m.Decorators {
				if q, _ := decoratorTarget(d); extract.QualIs(q, "tool", "crewai") && strings.Contains(q, ".project") {
					cc.ToolMethods[name] = m
				}
			}
		}
		cf.Classes = append(cf.Classes, cc)
	}
	for _, c := range f.Calls() {
		e := c.Expr
		if c.HeadKind != extract.HeadImport {
			continue
		}
		class := ""
		if c.Func != nil {
			class = c.Func.Class
		}
		switch {
		case extract.QualIs(c.Qual, "Agent", "crewai"):
			a := &extract.Agent{Framework: extract.FrameworkCrewAI, Ctor: "Agent", Loc: c.Loc, Call: e, Var: c.AssignedTo, Extra: map[extract.ExtraKey]string{}}
			a.Name = enclosingName(c, "Agent")
			if s, ok := extract.StrArg(e, -1, "role"); ok && s != "" {
				a.Name = s
				a.NameLoc = e.Kwarg("role").Loc
			} else if v := e.Kwarg("role"); v != nil {
				a.Name = computedName(v, c, "Agent")
			}
			if key, ok := configKey(e.Kwarg("config")); ok {
				a.Extra[extract.ExtraConfigKey] = key
				a.Extra[extract.ExtraCrewClass] = class
			}
			if tl := e.Kwarg("tools"); tl != nil {
				a.Tools = append(a.Tools, extract.ToolRef{Expr: tl})
			}
			if v := e.Kwarg("allow_delegation"); v != nil {
				if on, known := extract.Deref(v).Truthy(); known {
					a.Extra[extract.ExtraAllowDelegation] = map[bool]string{true: "true", false: "false"}[on]
				} else {
					a.Extra[extract.ExtraAllowDelegation] = "true" // computed: fail closed
				}
			}
			if v := e.Kwarg("allow_code_execution"); v != nil {
				// crewAI before 1.x adds its code interpreter to such an agent
				// (Docker in the default "safe" mode, the host in "unsafe"): a
				// tool the agent has without listing it. 1.x ignores the
				// deprecated flag; the version installed is not in the code,
				// so the interpreter is assumed (fail closed).
				if on, known := extract.Deref(v).Truthy(); on || !known {
					a.Direct = append(a.Direct, &extract.Tool{ID: f.Path + "#code-interpreter@" + itoaLine(int(c.Loc.Start.Line)), Name: "Code Interpreter",
						Framework: extract.FrameworkCrewAI, Kind: extract.ToolPrebuilt, Class: "crewai_tools.CodeInterpreterTool", Loc: v.Loc, NameLoc: v.Loc})
				}
			}
			for _, app := range extract.Strings(e.Kwarg("apps")) {
				a.Direct = append(a.Direct, &extract.Tool{ID: f.Path + "#app:" + app, Name: app, Framework: extract.FrameworkCrewAI,
					Kind: extract.ToolPrebuilt, Class: "crewai.apps." + app, Loc: e.Kwarg("apps").Loc, NameLoc: e.Kwarg("apps").Loc})
			}
			for _, u := range extract.Strings(e.Kwarg("mcps")) {
				s := &extract.MCPServer{Name: mcpsName(u), Loc: e.Kwarg("mcps").Loc, NameLoc: e.Kwarg("mcps").Loc, Framework: extract.FrameworkCrewAI,
					Launch: extract.NewLaunch("http", "", nil, mcpsURL(u), nil, nil)}
				if !strings.Contains(u, "://") {
					s.Launch = &extract.Launch{Transport: "amp", Switches: map[string]string{}}
				}
				s.ID = extract.ServerID(f.Path, s.Name)
				f.Servers = append(f.Servers, s)
				a.ServerIDs = append(a.ServerIDs, s.ID)
			}
			f.AddAgent(a)
		case extract.QualIs(c.Qual, "Task", "crewai"):
			t := &extract.CrewTask{Agent: e.Kwarg("agent"), Tools: e.Kwarg("tools"), Loc: c.Loc, Class: class}
			if key, ok := configKey(e.Kwarg("config")); ok {
				t.ConfigKey = key
			}
			cf.Tasks = append(cf.Tasks, t)
		case extract.QualIs(c.Qual, "Crew", "crewai"):
			cr := &extract.Crew{Name: enclosingName(c, "Crew"), Agents: e.Kwarg("agents"), Tasks: e.Kwarg("tasks"),
				Manager: e.Kwarg("manager_agent"), Loc: c.Loc}
			if e.Arg(0, "agents") != nil && cr.Agents == nil {
				cr.Agents = e.Arg(0, "agents")
			}
			if p := e.Kwarg("process"); p != nil && strings.HasSuffix(p.Name, "hierarchical") {
				cr.Hierarchical = true
			}
			if cr.Agents != nil && cr.Agents.Name == "self.agents" {
				cr.Class = class
			}
			cf.Crews = append(cf.Crews, cr)
		}
	}
	crewHooks(f, cf, root, src)
	if len(cf.Crews)+len(cf.Tasks)+len(cf.Classes)+len(cf.Hooks) > 0 {
		f.Crew = cf
	}
}

// crewTools: @tool functions and BaseTool subclasses of crewai.tools.
func crewTools(f *extract.File) {
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			q, call := decoratorTarget(d)
			// A @tool method of a plain class (class SearchTools: @tool("…")
			// def search(query)) is a tool too; a crew class's methods use
			// crewai.project's decorators, read by the crew adapter.
			if !extract.QualIs(q, "tool", crewTops...) || strings.Contains(q, ".project") {
				continue
			}
			t := &extract.Tool{Name: fn.Name, Symbol: fn.Name, Framework: extract.FrameworkCrewAI, Kind: extract.ToolFunc, Func: fn,
				Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc}
			if call != nil {
				if s, ok := extract.StrArg(call, 0, "name"); ok && s != "" {
					t.Name = s
				}
			}
			f.AddTool(t)
		}
	}
	for _, cl := range f.Classes {
		if !hasBase(cl, "BaseTool", crewTops...) {
			continue
		}
		t := &extract.Tool{Name: cl.Name, Symbol: cl.Name, Framework: extract.FrameworkCrewAI, Kind: extract.ToolClass, Loc: cl.Loc, NameLoc: cl.NameLoc}
		if s, ok := extract.Deref(cl.Attrs["name"]).StrValue(); ok {
			t.Name = s
		}
		t.Func = cl.Methods["_run"]
		if t.Func == nil {
			t.Func = cl.Methods["_arun"]
		}
		f.AddTool(t)
	}
}

func hasDecorator(ds []*extract.Expr, name string) bool {
	for _, d := range ds {
		if q, _ := decoratorTarget(d); extract.QualIs(q, name, "crewai") {
			return true
		}
	}
	return false
}

// configKey reads config=self.agents_config["key"].
func configKey(e *extract.Expr) (string, bool) {
	e = extract.Deref(e)
	if e == nil || e.Kind != extract.ExprSubscript || len(e.Elems) < 2 {
		return "", false
	}
	return e.Elems[1].StrValue()
}

// mcpsName names a CrewAI mcps= entry: a URL's host, or the slug.
func mcpsName(u string) string {
	u, _, _ = strings.Cut(u, "#")
	if i := strings.Index(u, "://"); i >= 0 {
		host := u[i+3:]
		if j := strings.IndexAny(host, "/?"); j >= 0 {
			host = host[:j]
		}
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			host = host[at+1:]
		}
		return host
	}
	return u
}

func mcpsURL(u string) string {
	u, _, _ = strings.Cut(u, "#")
	return u
}

// crewHooks reads @before_tool_call / @on(InterceptionPoint.PRE_TOOL_CALL)
// functions and register_before_tool_call_hook(fn). A hook counts as a
// gate for the tools on which it asks a human (request_human_input, input)
// or blocks (return False, raise HookAborted) unconditionally, or under a
// condition on the tool's name only; a gate under any other condition may
// let the call through and does not count (fail closed).
func crewHooks(f *extract.File, cf *extract.CrewFacts, root *syntax.Node, src []byte) {
	seen := map[*extract.Func]bool{}
	add := func(fn *extract.Func, filter *extract.Expr, at extract.Loc) {
		if fn == nil || seen[fn] {
			return
		}
		seen[fn] = true
		ap := hookApproval(f, fn, root, src)
		if ap == nil {
			return
		}
		ap.Loc = at
		h := &extract.ToolHook{Approval: ap, Class: fn.Class}
		if filter != nil {
			if names := extract.Strings(filter.Kwarg("tools")); len(names) > 0 {
				if ap.All {
					ap.All, ap.Tools = false, names
				} else {
					ap.Tools = intersectNames(ap.Tools, names)
					if len(ap.Tools) == 0 {
						return
					}
				}
			}
			h.Agents = extract.Strings(filter.Kwarg("agents"))
		}
		cf.Hooks = append(cf.Hooks, h)
	}
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			q, call := decoratorTarget(d)
			switch {
			case extract.QualIs(q, "before_tool_call", "crewai"):
				add(fn, call, d.Loc)
			case extract.QualIs(q, "on", "crewai") && call != nil && strings.HasSuffix(call.Arg(0, "point").Name, "PRE_TOOL_CALL"):
				add(fn, call, d.Loc)
			}
		}
	}
	for _, c := range f.Calls() {
		if extract.QualIs(c.Qual, "register_before_tool_call_hook", "crewai") {
			if a := c.Expr.Arg(0, "hook"); a != nil && a.Kind == extract.ExprName {
				add(extract.FuncDef(a.Scope, a.Name), nil, c.Loc)
			}
		}
	}
}

func intersectNames(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if SanitizeToolName(x) == SanitizeToolName(y) {
				out = append(out, y)
			}
		}
	}
	return out
}

// SanitizeToolName is CrewAI's tool-name normal form (lower case,
// non-alphanumerics to underscores), which hook filters compare by.
func SanitizeToolName(n string) string {
	var b strings.Builder
	prev := false
	for _, r := range strings.ToLower(strings.TrimSpace(n)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			prev = false
		} else if !prev {
			b.WriteByte('_')
			prev = true
		}
	}
	return strings.Trim(b.String(), "_")
}

// hookApproval decides what a hook gates, from where it asks a human or
// blocks and the tool-name conditions around those places.
func hookApproval(f *extract.File, fn *extract.Func, root *syntax.Node, src []byte) *extract.Approval {
	fnNode := descendantAt(root, f, fn.Loc)
	if fnNode == nil {
		return nil
	}
	ctx := ""
	for _, p := range fn.Params {
		if p.Name != "self" {
			ctx = p.Name
			break
		}
	}
	accept := func(s string) bool { return ctx != "" && s == ctx+".tool_name" }
	var sites []*syntax.Node
	kinds := map[*syntax.Node]string{}
	for _, g := range fn.Gates {
		if n := descendantAt(root, f, g.Loc); n != nil {
			sites = append(sites, n)
			kinds[n] = "asks a human"
		}
	}
	var walk func(n *syntax.Node, depth int)
	walk = func(n *syntax.Node, depth int) {
		if depth > 200 {
			return
		}
		switch n.Type() {
		case "return_statement":
			if ns := named(n); len(ns) == 1 && ns[0].Type() == "false" {
				sites = append(sites, n)
				kinds[n] = "blocks the call"
			}
		case "raise_statement":
			if strings.Contains(n.Content(src), "HookAborted") {
				sites = append(sites, n)
				kinds[n] = "blocks the call"
			}
		case "function_definition", "class_definition", "lambda":
			if depth > 0 {
				return
			}
		}
		for _, c := range named(n) {
			walk(c, depth+1)
		}
	}
	walk(fnNode, 0)
	ap := &extract.Approval{Kind: "before_tool_call", Loc: fn.NameLoc}
	var what []string
	for _, s := range sites {
		all, names, ok := guardNames(s, fnNode, src, accept)
		if !ok {
			continue
		}
		what = appendUniqStr(what, kinds[s])
		if all {
			ap.All = true
		}
		for _, n := range names {
			ap.Tools = appendUniqStr(ap.Tools, n)
		}
	}
	if !ap.All && len(ap.Tools) == 0 {
		return nil
	}
	if ap.All {
		ap.Tools = nil
	}
	ap.Detail = "CrewAI pre-tool hook " + fn.Name + " " + strings.Join(what, " and ")
	return ap
}

// guardNames walks from a site up to the function: every enclosing if must
// test the tool's name (all=false, names); no enclosing if means every tool
// (all=true). Any other condition makes the site conditional (ok=false).
func guardNames(site, fnNode *syntax.Node, src []byte, accept func(string) bool) (all bool, names []string, ok bool) {
	var cur []string
	constrained := false
	for n := site; n != nil && !n.Equal(fnNode); n = n.Parent() {
		p := n.Parent()
		if p == nil {
			break
		}
		switch p.Type() {
		case "if_statement", "elif_clause":
			cons := p.ChildByFieldName("consequence")
			if cons == nil || !cons.Equal(n) {
				if p.Type() == "if_statement" && n.Type() == "elif_clause" {
					continue
				}
				return false, nil, false // in the condition or an else branch
			}
			ns := comparedNamesBy(p.ChildByFieldName("condition"), src, accept)
			if len(ns) == 0 {
				return false, nil, false
			}
			if constrained {
				cur = intersectNames(cur, ns)
			} else {
				cur, constrained = ns, true
			}
		case "else_clause", "while_statement", "for_statement", "try_statement", "except_clause", "match_statement", "case_clause", "conditional_expression", "boolean_operator":
			return false, nil, false
		}
	}
	if !constrained {
		return true, nil, true
	}
	return false, cur, len(cur) > 0
}

func appendUniqStr(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
