package resolve

import (
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
)

// CrewAI: names and tools from the YAML configs of @CrewBase classes,
// crews (delegation links every agent of the crew that may delegate to
// every other one, and a hierarchical crew's manager to all of them),
// tasks (their tools are the agent's while it works on them) and the
// pre-tool hooks that gate tool calls.

func (b *builder) resolveCrews(files []*extract.File) {
	yamls := map[string]*extract.CrewConfig{}
	for _, f := range files {
		if f.Crew != nil && f.Crew.Config != nil {
			yamls[f.Path] = f.Crew.Config
		}
	}
	entry := func(p, key string) *extract.CrewEntry {
		if c := yamls[p]; c != nil {
			for _, e := range c.Entries {
				if e.Key == key {
					return e
				}
			}
		}
		return nil
	}
	delegates := map[*extract.Agent]bool{}
	for _, f := range files {
		classes := map[string]*extract.CrewClass{}
		if f.Crew != nil {
			for _, cc := range f.Crew.Classes {
				classes[cc.Name] = cc
			}
		}
		for _, a := range f.Agents {
			if a.Framework != extract.FrameworkCrewAI {
				continue
			}
			ca := b.agents[a]
			if a.Extra[extract.ExtraAllowDelegation] == "true" {
				delegates[a] = true
			}
			cc := classes[a.Extra[extract.ExtraCrewClass]]
			key := a.Extra[extract.ExtraConfigKey]
			if cc == nil || key == "" {
				continue
			}
			e := entry(cc.AgentsConfig, key)
			if e == nil {
				continue
			}
			if e.Role != "" && a.Call.Kwarg("role") == nil {
				ca.Name = e.Role
			}
			if e.AllowDelegation && a.Extra[extract.ExtraAllowDelegation] == "" {
				delegates[a] = true
			}
			b.crewYAMLTools(f, cc, ca, e.Tools)
		}
	}
	for _, f := range files {
		if f.Crew == nil {
			continue
		}
		classes := map[string]*extract.CrewClass{}
		for _, cc := range f.Crew.Classes {
			classes[cc.Name] = cc
		}
		for _, t := range f.Crew.Tasks {
			agents := b.crewAgents(f, t.Agent)
			tools := t.Tools
			if t.ConfigKey != "" {
				if cc := classes[t.Class]; cc != nil {
					if e := entry(cc.TasksConfig, t.ConfigKey); e != nil {
						if len(agents) == 0 && e.Agent != "" {
							agents = classAgentsByKey(f, t.Class, e.Agent)
						}
						for _, a := range agents {
							b.crewYAMLTools(f, cc, b.agents[a], e.Tools)
						}
					}
				}
			}
			if tools == nil {
				continue
			}
			for _, a := range agents {
				ca := b.agents[a]
				for _, m := range b.members(tools, 0) {
					if m.tool != nil {
						b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: m.tool.ID, Loc: m.loc})
					}
				}
			}
		}
		for _, cr := range f.Crew.Crews {
			var members []*extract.Agent
			if cr.Class != "" {
				members = classAgents(f, cr.Class)
			} else {
				members = b.crewAgents(f, cr.Agents)
			}
			var manager []*extract.Agent
			if cr.Manager != nil {
				manager = b.crewAgents(f, cr.Manager)
			} else if cr.Hierarchical {
				m := &extract.Agent{ID: f.Path + "#" + cr.Name + ".manager", Name: cr.Name + " manager", Framework: extract.FrameworkCrewAI,
					Ctor: "Crew(process=hierarchical)", Loc: cr.Loc, NameLoc: cr.Loc}
				b.agents[m] = &capgraph.Agent{ID: m.ID, Name: m.Name, Framework: m.Framework, Loc: cr.Loc, Src: m}
				manager = []*extract.Agent{m}
			}
			for _, m := range manager {
				b.delegation(f, m, members, cr.Loc)
			}
			for _, a := range members {
				if delegates[a] {
					b.delegation(f, a, members, a.Loc)
				}
			}
		}
	}
	b.crewHooks(files)
}

// crewYAMLTools adds the tools a YAML entry names: @tool methods of the
// crew class (they return the tool objects); other names are unknown.
func (b *builder) crewYAMLTools(f *extract.File, cc *extract.CrewClass, ca *capgraph.Agent, names []extract.ToolName) {
	for _, tn := range names {
		m := cc.ToolMethods[tn.Name]
		var ms []member
		if m != nil {
			for _, r := range m.ReturnExprs {
				ms = append(ms, b.members(r, 0)...)
			}
		}
		if len(ms) == 0 {
			why := "the YAML tool " + tn.Name + " is not a @tool method of " + cc.Name
			ms = []member{b.unknown(&extract.Expr{Kind: extract.ExprName, Name: tn.Name, Loc: tn.Loc}, why)}
		}
		for _, x := range ms {
			if x.tool != nil {
				b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: x.tool.ID, Loc: tn.Loc})
			}
		}
	}
}

// delegation links an agent to every other member of its crew and gives
// it the delegation tools CrewAI injects.
func (b *builder) delegation(f *extract.File, from *extract.Agent, members []*extract.Agent, at extract.Loc) {
	ca := b.agents[from]
	if ca == nil {
		return
	}
	for _, to := range members {
		if to != from && b.agents[to] != nil {
			b.links = append(b.links, capgraph.Link{From: ca.ID, To: b.agents[to].ID, Kind: capgraph.EdgeSubAgent, Loc: at})
		}
	}
	for _, p := range b.an.Catalog.Builtins {
		if p.Provider != "Agent(allow_delegation=True)" {
			continue
		}
		for _, ct := range p.Tools {
			t := &extract.Tool{ID: f.Path + "#" + ct.Name, Name: ct.Name, Framework: extract.FrameworkCrewAI, Kind: extract.ToolBuiltin, Loc: at, NameLoc: at}
			node := b.addResolved(t, ct.EffectsOf("catalog: CrewAI delegation tool ("+p.Provider+")"))
			b.uses = append(b.uses, capgraph.Use{Agent: ca.ID, Tool: node.ID, Loc: at})
		}
	}
}

// crewAgents resolves an agents= / agent= expression: lists, names, agent
// constructors, and self.method() calls of a @CrewBase class.
func (b *builder) crewAgents(f *extract.File, e *extract.Expr) []*extract.Agent {
	e = extract.Deref(e)
	if e == nil {
		return nil
	}
	if e.Kind == extract.ExprCall && strings.HasPrefix(e.Name, "self.") && e.Call != nil && e.Call.Func != nil {
		return methodAgents(f, e.Call.Func.Class, strings.TrimPrefix(e.Name, "self."))
	}
	if m, ok := strings.CutPrefix(e.Name, "self."); ok && e.Kind == extract.ExprName && !strings.Contains(m, ".") &&
		e.Scope != nil && e.Scope.Func != nil && e.Scope.Func.Class != "" {
		// Task(agent=self.researcher): the @agent method referenced
		// without a call is the agent it builds (CrewBase wraps it).
		if as := methodAgents(f, e.Scope.Func.Class, m); len(as) > 0 {
			return as
		}
	}
	if e.Kind == extract.ExprList {
		var out []*extract.Agent
		for _, x := range e.Elems {
			out = append(out, b.crewAgents(f, x)...)
		}
		return out
	}
	var out []*extract.Agent
	for _, m := range b.members(e, 0) {
		if m.agent != nil {
			out = append(out, m.agent)
		}
	}
	return out
}

// classAgents are the agents built in the @agent methods of a class.
func classAgents(f *extract.File, class string) []*extract.Agent {
	var out []*extract.Agent
	for _, a := range f.Agents {
		if a.Framework == extract.FrameworkCrewAI && a.Call != nil && a.Call.Call != nil && a.Call.Call.Func != nil && a.Call.Call.Func.Class == class {
			out = append(out, a)
		}
	}
	return out
}

func methodAgents(f *extract.File, class, method string) []*extract.Agent {
	var out []*extract.Agent
	for _, a := range classAgents(f, class) {
		if a.Call.Call.Func.Name == method {
			out = append(out, a)
		}
	}
	return out
}

// classAgentsByKey finds the class's agent built from agents.yaml[key] (or
// in the method of that name, CrewAI's convention).
func classAgentsByKey(f *extract.File, class, key string) []*extract.Agent {
	var out []*extract.Agent
	for _, a := range classAgents(f, class) {
		if a.Extra[extract.ExtraConfigKey] == key || a.Call.Call.Func.Name == key {
			out = append(out, a)
		}
	}
	return out
}

// crewHooks applies pre-tool hooks: a hook method of a @CrewBase class
// gates that crew's agents; a module-level hook gates the CrewAI agents of
// its own file and of files that import its module.
func (b *builder) crewHooks(files []*extract.File) {
	type scoped struct {
		h *extract.ToolHook
		f *extract.File
	}
	var hooks []scoped
	for _, f := range files {
		if f.Crew != nil {
			for _, h := range f.Crew.Hooks {
				hooks = append(hooks, scoped{h, f})
			}
		}
	}
	if len(hooks) == 0 {
		return
	}
	agentFile := map[string]*extract.File{}
	agentOf := map[string]*extract.Agent{}
	for _, f := range files {
		for _, a := range f.Agents {
			if a.Framework == extract.FrameworkCrewAI && b.agents[a] != nil {
				agentFile[a.ID] = f
				agentOf[a.ID] = a
			}
		}
	}
	for i := range b.uses {
		u := &b.uses[i]
		f := agentFile[u.Agent]
		if f == nil {
			continue
		}
		a := agentOf[u.Agent]
		t := b.tools[u.Tool]
		for _, s := range hooks {
			h := s.h
			if h.Class != "" {
				if s.f != f || a.Call == nil || a.Call.Call == nil || a.Call.Call.Func == nil || a.Call.Call.Func.Class != h.Class {
					continue
				}
			} else if s.f != f && !imports(f, s.f) {
				continue
			}
			if len(h.Agents) > 0 && !nameIn(b.agents[a].Name, h.Agents) {
				continue
			}
			if h.Approval.All || nameIn(t.Name, h.Approval.Tools) {
				u.Gates = append(u.Gates, h.Approval)
			}
		}
	}
}

func nameIn(n string, names []string) bool {
	for _, x := range names {
		if python.SanitizeToolName(x) == python.SanitizeToolName(n) {
			return true
		}
	}
	return false
}

// imports reports whether f imports the module of g.
func imports(f, g *extract.File) bool {
	for _, im := range f.Imports {
		q := im.Module
		if q == g.Module || strings.HasSuffix(g.Module, "."+q) || im.Qualified() == g.Module || strings.HasSuffix(g.Module, "."+im.Qualified()) {
			return true
		}
	}
	return false
}
