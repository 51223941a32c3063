package effects

import (
	"fmt"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// maxContainerHops bounds how many container references are followed in
// a row (a reference to a container found by a run of an agent whose
// shell itself reuses a container …).
const maxContainerHops = 3

// narrowed is CatalogTool.Narrowed with container references followed
// through the tree: a hosted tool that reuses a container by id has the
// labels of the hosted tools that made it, when the id is proved to come
// from them; else every label, by the fail-closed default, saying why.
func (a *Analyzer) narrowed(t *CatalogTool, ctor *extract.Expr, detail string, hops int) *Effects {
	if ctor == nil {
		return nil
	}
	for _, n := range t.Narrow {
		args, loc, ok := n.match(t, ctor)
		if !ok {
			continue
		}
		if n.Container == "" {
			return n.effects(t, args, loc, detail)
		}
		id, st := argPath(t, ctor, n.Container)
		if d := extract.Deref(id); st == argFound && d != nil && d.Kind == extract.ExprDict {
			continue // a container configuration, not the id of one
		}
		if st == argFound {
			if e := a.reusedContainer(id, detail, hops); e != nil {
				return e
			}
		}
		return Unknown(fmt.Sprintf("%s with %s: %s", t.Class, args, n.Why), loc)
	}
	return nil
}

// reusedContainer decides a container id: the result of an in-tree
// function that computes its return from its arguments alone (builtins,
// attribute and item reads), called with the results of runs of in-tree
// agents (Runner.run(agent, ...)): the container is one of those the runs
// made, so it has the labels of those agents' hosted container tools,
// provided every one of them narrows to a container that can neither
// fetch nor send. nil when that cannot be shown.
func (a *Analyzer) reusedContainer(id *extract.Expr, detail string, hops int) *Effects {
	if hops >= maxContainerHops || a.Resolver == nil {
		return nil
	}
	if e := createdContainer(id, detail); e != nil {
		return e
	}
	v := extract.Deref(id)
	if v == nil || v.Kind != extract.ExprCall || v.Call == nil || v.Call.Func == nil {
		return nil
	}
	fn := a.Resolver.Callee(v.Call)
	if fn == nil || !fromParamsOnly(fn) {
		return nil
	}
	// The argument's flow holds the runs and, conservatively, whatever went
	// into them (the agent, the prompt): anything else could be an id made
	// elsewhere.
	caller := v.Call.Func
	var in extract.Flow
	for _, arg := range v.Call.Args {
		in = append(in, arg.Flow...)
	}
	var runs []*extract.Call
	fed := map[[2]int]bool{}
	for _, o := range in {
		if o.Call >= 0 && o.Call < len(caller.Calls) && isAgentRun(caller.Calls[o.Call].Qual) {
			run := caller.Calls[o.Call]
			runs = append(runs, run)
			for _, x := range run.Recv {
				fed[[2]int{x.Param, x.Call}] = true
			}
			for _, ra := range run.Args {
				for _, x := range ra.Flow {
					fed[[2]int{x.Param, x.Call}] = true
				}
			}
		}
	}
	for _, o := range in {
		if !(o.Call >= 0 && o.Call < len(caller.Calls) && isAgentRun(caller.Calls[o.Call].Qual)) && !fed[[2]int{o.Param, o.Call}] {
			return nil // an origin that is not a run, nor what fed one
		}
	}
	var made []*Effects
	var agents []string
	for _, run := range runs {
		if run.Expr == nil {
			return nil
		}
		agent := extract.Deref(run.Expr.Arg(0, "starting_agent"))
		es := a.agentContainers(agent, hops)
		if es == nil {
			return nil
		}
		made = append(made, es...)
		name, _ := extract.StrArg(agent, 0, "name")
		agents = append(agents, fmt.Sprintf("the agent %q (line %d)", name, agent.Loc.Start.Line))
	}
	if len(made) == 0 {
		return nil
	}
	why := fmt.Sprintf("%s; the container id is read by %s from the result of running %s, whose hosted containers are all network-disabled",
		detail, fn.Name, strings.Join(agents, ", "))
	out := newEffects()
	for _, e := range made {
		for _, l := range Labels {
			if e.Has(l) {
				out.add(Evidence{Label: l, Kind: "catalog", Loc: id.Loc, Detail: why + ": " + firstDetail(e.Get(l))}, ByCatalog)
			}
		}
		for _, r := range e.Roles {
			out.addRoleBy(r, ByCatalog)
		}
	}
	out.settle(ByCatalog)
	return out
}

// containerCreate is what a container made through the OpenAI containers
// API (client.containers.create(...)) can do, by its arguments, in the
// same terms as the hosted shell's narrowings: only a disabled network
// policy is a proof (the API's default is not assumed).
var containerCreate = &CatalogTool{Class: "containers.create", Narrow: []*Narrowing{
	{When: map[string]string{"network_policy.type": "disabled", "file_ids": "absent"}, Effects: []Label{ExecutesCode},
		Why: "the container was created with network_policy disabled and no files: the code run in it can neither fetch nor send, and it holds nothing private"},
	{When: map[string]string{"network_policy.type": "disabled", "file_ids": "present"}, Effects: []Label{ReadsPrivate, ExecutesCode},
		Why: "the container was created with network_policy disabled and holds the uploaded files named by file_ids"},
}}

// createdContainer decides a container id read as `.id` of the result of
// client.containers.create(...) in the tree, or nil.
func createdContainer(id *extract.Expr, detail string) *Effects {
	if id == nil || id.Kind != extract.ExprName || !strings.HasSuffix(id.Name, ".id") || id.Scope == nil {
		return nil
	}
	head := &extract.Expr{Kind: extract.ExprName, Name: strings.TrimSuffix(id.Name, ".id"), Scope: id.Scope, Loc: id.Loc}
	c := extract.Deref(head)
	if c == nil || c.Kind != extract.ExprCall || c.Call == nil {
		return nil
	}
	if top, _, _ := strings.Cut(c.Call.Qual, "."); top != "openai" || !strings.HasSuffix(c.Call.Qual, ".containers.create") {
		return nil
	}
	for _, n := range containerCreate.Narrow {
		if args, loc, ok := n.match(containerCreate, c); ok {
			return n.effects(containerCreate, args, loc, detail+"; the container id is that of client.containers.create(...) (line "+fmt.Sprint(c.Loc.Start.Line)+")")
		}
	}
	return nil
}

// agentContainers returns the narrowed effects of every hosted container
// tool of an agent built by Agent(...), or nil when one of them may fetch
// or send, when the agent hands off (its run would hold the other agents'
// containers too), or when its tool list is not fully readable.
func (a *Analyzer) agentContainers(agent *extract.Expr, hops int) []*Effects {
	if agent == nil || agent.Kind != extract.ExprCall || !extract.QualIs(extract.QualOf(agent), "Agent", "agents") {
		return nil
	}
	if h := extract.Deref(agent.Kwarg("handoffs")); h != nil && (h.Kind != extract.ExprList || len(h.Elems) > 0) {
		return nil
	}
	tools := extract.Deref(agent.Kwarg("tools"))
	if tools == nil || tools.Kind != extract.ExprList {
		return nil
	}
	var out []*Effects
	for _, x := range tools.Elems {
		d := extract.Deref(x)
		if d == nil {
			return nil
		}
		switch d.Kind {
		case extract.ExprCall:
			ct := a.Catalog.Tool(extract.QualOf(d))
			if ct == nil || !ct.HostedContainer {
				continue // not a tool that runs in a hosted container
			}
			e := a.narrowed(ct, d, "catalog: "+ct.Class+" — "+ct.Summary, hops+1)
			if e == nil || e.Has(NetworkEgress) || e.Has(UntrustedInput) || defaulted(e) {
				return nil
			}
			out = append(out, e)
		case extract.ExprName:
			if d.Scope == nil {
				return nil
			}
			bs := d.Scope.Lookup(d.Name)
			if len(bs) == 0 || bs[len(bs)-1].Kind != extract.BindDef {
				return nil // a value acg cannot see could be a hosted tool
			}
		default:
			return nil
		}
	}
	return out
}

// fromParamsOnly reports whether everything a function returns comes from
// its parameters through builtins and methods of plain data (getattr,
// .get, attribute and item reads): it cannot make a container id of its
// own.
func fromParamsOnly(fn *extract.Func) bool {
	seen := map[int]bool{}
	var pure func(fl extract.Flow) bool
	pure = func(fl extract.Flow) bool {
		for _, o := range fl {
			if o.Call < 0 {
				continue // a parameter
			}
			if o.Call >= len(fn.Calls) {
				return false
			}
			if seen[o.Call] {
				continue
			}
			seen[o.Call] = true
			c := fn.Calls[o.Call]
			if c.HeadKind != extract.HeadBuiltin && c.HeadKind != extract.HeadData {
				return false
			}
			if !pure(c.Recv) {
				return false
			}
			for _, arg := range c.Args {
				if !pure(arg.Flow) {
					return false
				}
			}
		}
		return true
	}
	return pure(fn.Returns)
}

// isAgentRun reports whether a qualified call runs an OpenAI Agents SDK
// agent and returns its run result.
func isAgentRun(q string) bool {
	top, _, _ := strings.Cut(q, ".")
	if top != "agents" {
		return false
	}
	for _, m := range []string{"Runner.run", "Runner.run_sync", "Runner.run_streamed"} {
		if strings.HasSuffix(q, "."+m) {
			return true
		}
	}
	return false
}

func defaulted(e *Effects) bool {
	for _, l := range Labels {
		if e.Get(l).DecidedBy == ByDefault {
			return true
		}
	}
	return false
}

func firstDetail(r *Result) string {
	if r == nil || len(r.Evidence) == 0 {
		return ""
	}
	return r.Evidence[0].Detail
}
