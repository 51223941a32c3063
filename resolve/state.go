package resolve

import "github.com/acg-dev/acg/extract"

// Fixed graph steps act for the agent only when model-produced data
// reaches them (DESIGN.md). A node reads its data from the graph's state,
// field by field, and a field holds model-produced data only when some
// node writes model-produced data into it: a field no node writes (the
// email id a graph is started with) comes from the graph's input alone.
//
// stateFields reads which nodes write which fields of a graph's state and
// whether a model's output can reach them: a node writes the keys of the
// dict it returns, or of its Command(update=...); the value of a key is
// model-produced when its flow holds a call's result (any call may be the
// model's), the whole state, or a field that is itself model-produced.
// Graphs nested in one another (a compiled graph run as a node) share
// their state, so they are read as one. Anything not read this way (a
// node that returns something else, a runnable acg cannot see into) may
// write every field, and then no field is input-only (fail closed).

// fieldSet is what the nodes of a group of nested graphs may write.
type fieldSet struct {
	model map[string]bool
	all   bool
}

// inputOnly reports whether field is filled only from the graph's input.
func (fs *fieldSet) inputOnly(field string) bool { return !fs.all && !fs.model[field] }

// write is one state field a node returns, with the flow of its value
// inside the node's function.
type write struct {
	fn    *extract.Func
	field string
	flow  extract.Flow
}

// nodeFields maps each function node tool of a graph agent to the
// fields its graph fills only from the input.
func (b *builder) nodeFields(files []*extract.File) map[*extract.Tool]func(string) bool {
	var graphs []*extract.Agent
	for _, f := range files {
		for _, a := range f.Agents {
			if a.Graph != nil && stateGraph(a) {
				graphs = append(graphs, a)
			}
		}
	}
	if len(graphs) == 0 {
		return nil
	}
	// Nested graphs form groups (union-find over "runs as a node of").
	parent := map[*extract.Agent]*extract.Agent{}
	var find func(a *extract.Agent) *extract.Agent
	find = func(a *extract.Agent) *extract.Agent {
		for parent[a] != nil && parent[a] != a {
			a = parent[a]
		}
		return a
	}
	for _, a := range graphs {
		for _, n := range a.Graph.Nodes {
			if sub := b.graphAgentOf(n.Action); sub != nil && sub.Graph != nil && stateGraph(sub) && find(sub) != find(a) {
				parent[find(sub)] = find(a)
			}
		}
	}
	writes := map[*extract.Agent][]write{}
	open := map[*extract.Agent]bool{}
	for _, a := range graphs {
		root := find(a)
		ws, all := b.graphWrites(a)
		writes[root] = append(writes[root], ws...)
		if all {
			open[root] = true
		}
	}
	sets := map[*extract.Agent]*fieldSet{}
	for root, ws := range writes {
		fs := &fieldSet{model: map[string]bool{}, all: open[root]}
		for changed := !fs.all; changed; {
			changed = false
			for _, w := range ws {
				if !fs.model[w.field] && modelFlow(w.fn, w.flow, fs) {
					fs.model[w.field] = true
					changed = true
				}
			}
		}
		sets[root] = fs
	}
	out := map[*extract.Tool]func(string) bool{}
	for _, a := range graphs {
		fs := sets[find(a)]
		if fs == nil || fs.all {
			continue
		}
		for _, r := range a.Tools {
			if r.Tool != nil && r.Tool.Kind == extract.ToolNode {
				out[r.Tool] = fs.inputOnly
			}
		}
	}
	return out
}

// graphAgentOf is the compiled graph agent a node's action names (a
// variable holding builder.compile(), here or imported), or nil.
func (b *builder) graphAgentOf(e *extract.Expr) *extract.Agent {
	if e == nil {
		return nil
	}
	if e.Kind == extract.ExprCall && e.Call != nil {
		return b.byCall[e.Call]
	}
	if e.Kind != extract.ExprName || e.Scope == nil {
		return nil
	}
	t, ok := b.ix.lookup(e.Scope, e.Name, 0)
	if !ok || t.bind == nil || t.bind.Kind != extract.BindAssign || t.bind.Value == nil || t.bind.Value.Call == nil {
		return nil
	}
	return b.byCall[t.bind.Value.Call]
}

// graphWrites returns what the nodes of one graph write; all is set when
// some node may write fields acg cannot name.
func (b *builder) graphWrites(a *extract.Agent) (ws []write, all bool) {
	for _, n := range a.Graph.Nodes {
		act := extract.Deref(n.Action)
		switch {
		case n.Action == nil:
			all = true
		case b.graphAgentOf(n.Action) != nil:
			// A nested graph: its own nodes are read with it (one group).
			// A prebuilt agent run as a node writes what it likes.
			if sub := b.graphAgentOf(n.Action); sub.Graph == nil || !stateGraph(sub) {
				all = true
			}
		case act != nil && act.Kind == extract.ExprCall && extract.QualIs(extract.QualOf(act), "ToolNode", "langgraph"):
			// The tools' results, as messages; a tool may also return a
			// Command(update=...) of its own.
			ws = append(ws, write{field: "messages", flow: extract.Flow{{Param: -1, Call: 0}}})
			if b.toolsUpdateState(act.Arg(0, "tools")) {
				all = true
			}
		default:
			fn := b.ix.funcOf(n.Action)
			if fn == nil {
				all = true
				continue
			}
			fws, ok := returnedFields(fn)
			if !ok {
				all = true
			}
			ws = append(ws, fws...)
		}
	}
	return ws, all
}

// toolsUpdateState reports whether a tool a ToolNode runs may return a
// Command, which updates the graph's state with whatever it holds, or
// whether the tools cannot be read.
func (b *builder) toolsUpdateState(list *extract.Expr) bool {
	l := extract.Deref(list)
	if l == nil || l.Kind != extract.ExprList {
		return true
	}
	for _, el := range l.Elems {
		fn := b.ix.funcOf(el)
		if fn == nil {
			if el != nil && el.Kind == extract.ExprCall {
				continue // a prebuilt tool returns its result
			}
			return true
		}
		for _, r := range fn.ReturnExprs {
			if r != nil && r.Kind == extract.ExprCall && r.Method() == "Command" {
				return true
			}
		}
	}
	return false
}

// returnedFields reads the state fields a node function returns: dict
// literals, Command(update=...), a local variable assigned such values.
// ok is false when some return is something else.
func returnedFields(fn *extract.Func) (ws []write, ok bool) {
	ok = true
	var visit func(e *extract.Expr, depth int)
	visit = func(e *extract.Expr, depth int) {
		if e == nil || depth > 4 {
			ok = false
			return
		}
		switch e.Kind {
		case extract.ExprNone:
			return
		case extract.ExprDict:
			if e.Spread || len(e.Flows) != len(e.Elems) {
				ok = false
				return
			}
			for i, k := range e.Keys {
				s, lit := k.StrValue()
				if !lit {
					ok = false
					continue
				}
				ws = append(ws, write{fn: fn, field: s, flow: e.Flows[i]})
			}
		case extract.ExprCall:
			if !extract.QualIs(extract.QualOf(e), "Command", "langgraph") {
				ok = false
				return
			}
			if u := e.Kwarg("update"); u != nil {
				visit(u, depth+1)
			}
		case extract.ExprName:
			bs := localAssigns(fn, e)
			if len(bs) == 0 {
				ok = false
				return
			}
			for _, v := range bs {
				visit(v, depth+1)
			}
		default:
			ok = false
		}
	}
	for _, r := range fn.ReturnExprs {
		visit(r, 0)
	}
	return ws, ok
}

// localAssigns returns every value a plain local name of fn is assigned
// (update = {...} in each branch), or nil when it is bound any other way.
func localAssigns(fn *extract.Func, e *extract.Expr) []*extract.Expr {
	if fn.Scope == nil || e.Scope != fn.Scope {
		return nil
	}
	bs := fn.Scope.Bindings[e.Name]
	var out []*extract.Expr
	for _, bd := range bs {
		if bd.Kind != extract.BindAssign || bd.Value == nil {
			return nil
		}
		out = append(out, bd.Value)
	}
	return out
}

// modelFlow reports whether a value a node writes may hold model-produced
// data: a call's result, the node's whole state, or a field of it that is
// model-produced. Other parameters are what the framework injects
// (config, store).
func modelFlow(fn *extract.Func, fl extract.Flow, fs *fieldSet) bool {
	state := stateParam(fn)
	for _, o := range fl {
		switch {
		case o.Call >= 0:
			return true
		case o.Param >= 0 && fn == nil:
			return true
		case o.Param == state && (o.Key == "" || fs.model[o.Key]):
			return true
		}
	}
	return false
}

// stateParam is the index of a node function's state parameter.
func stateParam(fn *extract.Func) int {
	if fn == nil {
		return -1
	}
	for i, p := range fn.Params {
		if p.Name != "self" && p.Name != "cls" {
			return i
		}
	}
	return -1
}

// stateGraph reports whether an agent is a hand-built StateGraph, whose
// nodes acg reads.
func stateGraph(a *extract.Agent) bool {
	return a.Ctor == "StateGraph" || a.Ctor == "StateGraph(uncompiled)"
}
