package effects

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Resolver finds code of the scanned tree. The workspace implements it; it
// is the only way effects reach across files.
type Resolver interface {
	// Callee returns the function a call runs when it is in the tree: a def
	// of the same file, a method of a local class, an imported function.
	Callee(c *extract.Call) *extract.Func
	// FuncOf returns the function an expression names (func=f arguments).
	FuncOf(e *extract.Expr) *extract.Func
	// Requalify rewrites a call on a variable imported from another file
	// of the tree: the variable's type plus the method ("requests.Session().post"),
	// or "" with ok for plain data (a prompt string's .format()).
	Requalify(c *extract.Call) (qual string, ok bool)
	// RunsTool reports a call that runs a tool the model chose from a
	// registry of the tree (tools_by_name[call["name"]].invoke(args), the
	// registry here or imported): the registry's tools, which the agent
	// uses in that node, carry its effects.
	RunsTool(c *extract.Call) bool
}

// AttrResolver is what a Resolver may also do: give the values a class of
// the tree stores in the attribute a call's receiver names through self
// (every assignment of the attribute in any method), or nil.
type AttrResolver interface {
	AttrValues(c *extract.Call) []*extract.Expr
	// AttrType is the value type ("T()") of that attribute when every
	// value stored in it is the result of a call of the tree returning T.
	AttrType(c *extract.Call) string
}

// TypeOnlyResolver is what a Resolver may also do: tell a call on a value
// whose type the tree declares as a type only (a TypeScript type alias or
// interface, erased at run time). Such a value, and a member of it, is a
// value of unknown type: only data methods compute on it.
type TypeOnlyResolver interface {
	TypeOnly(c *extract.Call) bool
}

// OverrideResolver is what a Resolver may also do: give the methods that
// in-tree subclasses define in place of a method (the overrides of an
// abstract DocumentConverter.convert), which a call on a value of the
// declared class may run instead.
type OverrideResolver interface {
	Overrides(fn *extract.Func) []*extract.Func
}

// AgentRunResolver is what a Resolver may also do: tell a call that runs an
// agent of the tree through the variable it is bound to
// (search_agent.run(query) in a tool: PydanticAI's agent delegation). The
// resolver links the tool to that agent, so the call adds no effects.
type AgentRunResolver interface {
	RunsTreeAgent(c *extract.Call) bool
}

// Analyzer decides effects. It memoises per function and calling context,
// so one analyzer should serve one snapshot of the workspace.
type Analyzer struct {
	Rules    *Rules
	Catalog  *Catalog
	Resolver Resolver
	memo     map[memoKey]*Effects
	busy     map[memoKey]bool
	// ptypes are the types the current call site's arguments give the
	// parameters of the function being walked (index -> "T()").
	ptypes map[int]string
	// chained are the qualified names attrTypedCall gave calls, so the
	// calls chained on their results are typed too.
	chained map[*extract.Expr]string
}

type memoKey struct {
	fn       *extract.Func
	mask     uint64
	priv     privMask
	returned bool
	gated    bool
	ptypes   string // the argument types the call site gave (argTypes)
}

// maxDepth bounds how deep calls into helper functions are followed.
const maxDepth = 8

// NewAnalyzer returns an analyzer over the embedded rules and catalog.
func NewAnalyzer(r Resolver) *Analyzer {
	return &Analyzer{Rules: DefaultRules(), Catalog: DefaultCatalog(), Resolver: r,
		memo: map[memoKey]*Effects{}, busy: map[memoKey]bool{}}
}

// Tool decides the effects of a tool.
func (a *Analyzer) Tool(t *extract.Tool) *Effects { return a.tool(t, nil) }

// Node decides the effects of a graph node that runs a function, a fixed
// step, when the fields of the graph's state that inputOnly names are
// filled only from the graph's input: what the node reads from them is
// not model-produced data (DESIGN.md, "Fixed graph steps").
func (a *Analyzer) Node(t *extract.Tool, inputOnly func(field string) bool) *Effects {
	return a.tool(t, inputOnly)
}

func (a *Analyzer) tool(t *extract.Tool, inputOnly func(string) bool) *Effects {
	switch t.Kind {
	case extract.ToolFunc, extract.ToolClass, extract.ToolNode:
		fn := t.Func
		if fn == nil && t.FuncRef != nil && a.Resolver != nil {
			fn = a.Resolver.FuncOf(t.FuncRef)
		}
		if fn != nil && t.Kind == extract.ToolNode && inputOnly != nil {
			fn = stateView(fn, inputOnly)
		}
		if fn != nil {
			var e *Effects
			if t.Branch.Valid() {
				e = a.toolFuncIn(fn, t.Branch)
			} else {
				e = a.ToolFunc(fn, t.Kind == extract.ToolNode)
			}
			if t.Kind == extract.ToolNode {
				e.fixedStep()
			}
			applyHints(e, t)
			return e
		}
		if e := a.boundCatalogTool(t.FuncRef); e != nil {
			return e // Tool(func=YouTubeSearchTool().run): that tool
		}
		if t.Kind == extract.ToolClass && t.Extra[extract.ExtraSchemaOnly] == "true" {
			e := newEffects()
			e.settle(ByRules)
			return e
		}
		return Unknown(fmt.Sprintf("the code of tool %s is not in the scanned tree", t.Name), t.Loc)
	case extract.ToolPrebuilt:
		if ct := a.Catalog.Tool(t.Class); ct != nil {
			detail := "catalog: " + ct.Class + " — " + ct.Summary
			if e := a.narrowed(ct, t.Ctor, detail, 0); e != nil {
				return e
			}
			if e := a.Catalog.hostedServer(ct, t.Ctor); e != nil {
				return e
			}
			return ct.EffectsOf(detail)
		}
		return Unknown(fmt.Sprintf("prebuilt tool %s is not in the catalog", t.Class), t.Loc)
	case extract.ToolAgent:
		e := newEffects()
		e.settle(ByRules) // the agent's own tools carry its effects (capgraph)
		return e
	}
	if len(t.Declared) > 0 {
		by := Decider(t.Extra[extract.ExtraDecidedBy])
		if by == "" {
			by = ByCatalog
		}
		e := newEffects()
		for _, l := range Labels {
			if v, ok := t.Declared[string(l)]; ok && v {
				e.add(Evidence{Label: l, Kind: string(by), Loc: t.Loc, Detail: t.Extra[extract.ExtraDetail]}, by)
			}
		}
		for _, r := range strings.Fields(t.Extra[extract.ExtraRoles]) {
			e.addRoleBy(r, by)
		}
		if t.Extra[extract.ExtraSettle] == "default" {
			e.settleDefault(t.Extra[extract.ExtraDetail], t.Loc)
		} else {
			e.settle(by)
		}
		return e
	}
	return Unknown("nothing is known about tool "+t.Name, t.Loc)
}

// boundCatalogTool decides a tool whose function is a bound run method of
// a catalogued prebuilt tool (func=yt.run with yt = YouTubeSearchTool(),
// Tool.from_function(DuckDuckGoSearchRun().run)): it is that tool, with
// its catalog labels (narrowed by the constructor's arguments). nil when
// the function is anything else.
func (a *Analyzer) boundCatalogTool(ref *extract.Expr) *Effects {
	if ref == nil || ref.Kind != extract.ExprName || a.Catalog == nil {
		return nil
	}
	var recv *extract.Expr
	method := ""
	switch i := strings.LastIndexByte(ref.Name, '.'); {
	case ref.Recv != nil && i == 0:
		recv, method = ref.Recv, ref.Name[1:]
	case ref.Recv == nil && i > 0 && !strings.Contains(ref.Name[:i], "."):
		recv, method = &extract.Expr{Kind: extract.ExprName, Name: ref.Name[:i], Scope: ref.Scope, Loc: ref.Loc}, ref.Name[i+1:]
	}
	if !toolMethods[method] {
		return nil
	}
	recv = extract.Deref(recv)
	if recv == nil || recv.Kind != extract.ExprCall {
		return nil
	}
	q := a.Rules.Normalize(extract.QualOf(recv))
	ct := a.Catalog.Tool(q)
	if ct == nil || !isClassName(lastDot(q)) || ct.Kind == "factory" {
		return nil
	}
	detail := fmt.Sprintf("catalog: %s — %s (its %s method is the tool's function)", ct.Class, ct.Summary, method)
	if e := a.narrowed(ct, recv, detail, 0); e != nil {
		return e
	}
	return ct.EffectsOf(detail)
}

// Unknown is the fail-closed answer: every label present, decided by default.
func Unknown(why string, l extract.Loc) *Effects {
	e := newEffects()
	e.settleDefault(why, l)
	return e
}

func (e *Effects) settleDefault(why string, l extract.Loc) {
	for _, lb := range Labels {
		if r := e.Labels[lb]; r.DecidedBy == "" {
			e.add(Evidence{Label: lb, Kind: "unknown", Loc: l, Detail: why}, ByDefault)
		}
	}
}

// ToolFunc decides the effects of running fn as a tool: the model chooses
// its parameters (except injected ones; for a graph node, its state) and
// reads its return value.
func (a *Analyzer) ToolFunc(fn *extract.Func, node bool) *Effects {
	var ptypes map[int]string
	if node {
		ptypes = nodeParamTypes(fn)
	}
	raw := a.fnTyped(fn, toolMask(fn, node), privMask{}, true, false, nil, 0, ptypes)
	out := newEffects()
	for _, l := range Labels {
		for _, ev := range raw.Labels[l].Evidence {
			out.add(ev, raw.Labels[l].DecidedBy)
		}
	}
	out.settle(ByRules)
	return out
}

// nodeInjected are the parameters LangGraph fills in by name when a node
// function declares them without an annotation (KWARGS_CONFIG_KEYS in
// langgraph/_internal/_runnable.py: an unannotated `store` is the graph's
// BaseStore), as value types.
var nodeInjected = map[string]string{"store": "langgraph.store.base.BaseStore()", "writer": "langgraph.types.StreamWriter()"}

// nodeParamTypes types the unannotated parameters of a graph node that
// LangGraph injects by name (after the state, the first parameter).
func nodeParamTypes(fn *extract.Func) map[int]string {
	var out map[int]string
	first := true
	for i, p := range fn.Params {
		if p.Name == "self" || p.Name == "cls" {
			continue
		}
		if first {
			first = false // the state
			continue
		}
		if ty, ok := nodeInjected[p.Name]; ok && p.Annotation == "" {
			if out == nil {
				out = map[int]string{}
			}
			out[i] = ty
		}
	}
	return out
}

// withDefaults adds to ptypes the types of the default values of the
// parameters nothing else types (`def remember(text, store=InMemoryStore())`,
// `client=httpx.Client()`): a call that passes no argument runs with that
// value. A call that passes one of another type is typed by it (argTypes);
// an argument acg cannot type leaves the default's type, the only one the
// code shows.
func withDefaults(fn *extract.Func, ptypes map[int]string) map[int]string {
	out := ptypes
	for i, p := range fn.Params {
		if p.DefaultCall == "" || p.Annotation != "" || p.Name == "self" || p.Name == "cls" {
			continue
		}
		if _, ok := ptypes[i]; ok {
			continue
		}
		ty := paramClass(fn, extract.Param{Name: p.Name, Annotation: p.DefaultCall})
		if ty == "" {
			continue
		}
		if len(out) == len(ptypes) {
			out = make(map[int]string, len(ptypes)+1) // never write the caller's map
			for k, v := range ptypes {
				out[k] = v
			}
		}
		out[i] = ty
	}
	return out
}

// toolMask is the set of parameters that carry model-chosen data: a
// tool's parameters except the injected ones; for a graph node its state,
// the first parameter, whatever its annotation says (the parameters after
// it are what LangGraph passes in: the RunnableConfig, the store, the
// stream writer, the runtime).
func toolMask(fn *extract.Func, node bool) uint64 {
	var mask uint64
	for i, p := range fn.Params {
		if i >= 64 {
			break
		}
		if node {
			if p.Name != "self" && p.Name != "cls" {
				return 1 << uint(i)
			}
			continue
		}
		if !p.Injected {
			mask |= 1 << uint(i)
		}
	}
	return mask
}

// toolFuncIn decides a tool that is one branch of a dispatching function
// (a low-level MCP call_tool handler's `if name == "x":` block): only the
// calls inside the branch count, with everything they call.
func (a *Analyzer) toolFuncIn(fn *extract.Func, in extract.Loc) *Effects {
	mask := toolMask(fn, false)
	out := newEffects()
	for _, c := range fn.Calls {
		if c.Loc.Start.Byte < in.Start.Byte || c.Loc.End.Byte > in.End.Byte {
			continue
		}
		a.call(out, c, mask, privMask{}, true, false, nil, 0)
	}
	out.settle(ByRules)
	return out
}

// applyHints adds a tool's declared hints (MCP tool annotations): they
// rank below the code's own evidence, so they only settle what the code
// left to the fail-closed default, and a hint never removes a label.
func applyHints(e *Effects, t *extract.Tool) {
	if len(t.Declared) == 0 {
		return
	}
	by := Decider(t.Extra[extract.ExtraDecidedBy])
	if by == "" {
		by = ByAnnotation
	}
	for _, l := range Labels {
		if !t.Declared[string(l)] {
			continue
		}
		if r := e.Labels[l]; r.DecidedBy != "" && r.DecidedBy != ByDefault {
			continue
		}
		e.add(Evidence{Label: l, Kind: string(by), Loc: t.Loc, Detail: t.Extra[extract.ExtraDetail]}, by)
	}
}

// fn decides a function's body: mask marks the parameters that carry
// model-chosen data, priv those that carry private data the caller read.
func (a *Analyzer) fn(fn *extract.Func, mask uint64, priv privMask, returned, gated bool, via []extract.Loc, depth int) *Effects {
	return a.fnTyped(fn, mask, priv, returned, gated, via, depth, nil)
}

// fnTyped is fn with the types a call site's arguments give fn's
// parameters (send_message(service, ...) with service = build("gmail",
// ...)): methods called on those parameters are typed by them.
func (a *Analyzer) fnTyped(fn *extract.Func, mask uint64, priv privMask, returned, gated bool, via []extract.Loc, depth int, ptypes map[int]string) *Effects {
	ptypes = withDefaults(fn, ptypes)
	key := memoKey{fn, mask, priv, returned, gated, encodeTypes(ptypes)}
	saved := a.ptypes
	a.ptypes = ptypes
	defer func() { a.ptypes = saved }()
	if e, ok := a.memo[key]; ok {
		return e
	}
	e := newEffects()
	if a.busy[key] || depth > maxDepth {
		return e // recursion: the outer walk already covers this body
	}
	a.busy[key] = true
	defer delete(a.busy, key)
	for _, c := range fn.Calls {
		a.call(e, c, mask, priv, returned, gated, via, depth)
	}
	a.memo[key] = e
	return e
}

// call adds what one call site contributes to e.
func (a *Analyzer) call(e *Effects, c *extract.Call, mask uint64, priv privMask, returned, gated bool, via []extract.Loc, depth int) {
	cGated, gateLoc := gated, extract.Loc{}
	if !cGated {
		cGated, gateLoc = a.gatedCall(c)
	}
	cRet := returned && c.Returned
	if c.RunsTool || c.Gate || a.Resolver != nil && a.Resolver.RunsTool(c) {
		// One of the agent's own tools, which carry their effects; or a
		// question to a human (interrupt, ctx.elicit), which has none.
		return
	}
	a.callbacks(e, c, mask, priv, cRet, cGated, via, depth)
	a.runsCallable(e, c, mask, priv, cRet, cGated, via, depth)
	if tc, ok := a.argTypedCall(c); ok && !c.Gate {
		c = tc // a method of a parameter the call site's argument typed
	} else if tc, ok := a.attrTypedCall(c); ok && !c.Gate {
		c = tc // self.service.users() with self.service = self._service()
	}
	if a.catalogCall(e, c, cGated, gateLoc, via) {
		return
	}
	if (c.HeadKind == extract.HeadData || c.HeadKind == extract.HeadObject && c.Expr != nil && strings.HasPrefix(c.Expr.Name, "self.")) &&
		a.pipe(e, c, mask, priv, returned, cGated, via, depth) {
		return
	}
	if (c.Qual == "<expr>" || c.HeadKind == extract.HeadData) && a.dispatch(e, c, mask, priv, cRet, cGated, via, depth) {
		return
	}
	if c.BuildsAgent || runsAgent(c) || a.runsTreeCrew(c) || a.runsTreeAgent(c) {
		// Building an agent the tree declares, or running it: its own
		// tools carry its effects (capgraph links it as a sub-agent).
		return
	}
	if tc, ok := typedParamCall(c); !ok && !c.Gate {
		tc, ok = a.typedResultCall(c)
		if ok {
			c = tc // conn.execute(sql).fetchone() on an annotated conn
		}
	} else if ok && !c.Gate {
		// A method of an annotated parameter is typed by its annotation when
		// that says what it does (rules, or code of the tree); otherwise it
		// stays a method of data, as without the annotation.
		if k, _ := a.Rules.Classify(tc); k != "unknown" || a.callee(tc) != nil {
			c = tc
		}
	}
	kind, name := a.Rules.Classify(c)
	if kind == "unknown" && a.Resolver != nil && c.HeadKind != extract.HeadLocal && c.HeadKind != extract.HeadSelf {
		if q, ok := a.Resolver.Requalify(c); ok {
			if q == "" {
				kind = "pure"
			} else {
				rc := *c
				rc.Qual, rc.HeadKind = q, extract.HeadObject
				kind, name = a.Rules.Classify(&rc)
				if c.Expr != nil {
					// The calls chained on its result (.drafts().create())
					// are methods of the requalified value in turn.
					if a.chained == nil {
						a.chained = map[*extract.Expr]string{}
					}
					a.chained[c.Expr] = q
				}
			}
		} else if tr, ok := a.Resolver.(TypeOnlyResolver); ok && tr.TypeOnly(c) {
			rc := *c
			rc.HeadKind = extract.HeadData
			kind, name = a.Rules.Classify(&rc)
		}
	}
	if kind == "local" || kind == "unknown" {
		if callee := a.callee(c); callee != nil {
			if returned && callee.StateReturned {
				// browser.visit(url), then return browser.current(): what
				// visit fetched reaches the model through the object.
				cRet = true
			}
			if cRet && textFreeFields(c, callee) {
				cRet = false // only numbers, flags and listed choices of its value reach the model
			}
			runs := []*extract.Func{callee}
			if or, ok := a.Resolver.(OverrideResolver); ok && (c.HeadKind == extract.HeadObject || c.HeadKind == extract.HeadSelf) {
				// The receiver's class is declared, not built: a subclass's
				// override may be what runs.
				runs = append(runs, or.Overrides(callee)...)
			}
			for _, fn := range runs {
				sub := a.fnTyped(fn, bindParams(c, fn, mask), a.privParams(c, fn, priv, depth), cRet, cGated, append(via[:len(via):len(via)], c.Loc), depth+1, a.argTypes(c, fn))
				for _, l := range Labels {
					for _, ev := range sub.Labels[l].Evidence {
						e.add(ev, sub.Labels[l].DecidedBy)
					}
				}
			}
			return
		}
		if c.HeadKind == extract.HeadSelf && a.Resolver != nil {
			// A method the class inherits from a library class.
			if q, ok := a.Resolver.Requalify(c); ok && q != "" {
				rc := *c
				rc.Qual, rc.HeadKind = q, extract.HeadObject
				if k, n := a.Rules.Classify(&rc); k != "local" {
					kind, name = k, n
				}
			}
		}
		if kind == "local" {
			kind = "unknown"
		}
	}
	d := decision{a: a, e: e, c: c, kind: kind, name: name, mask: mask, priv: priv, depth: depth, returned: cRet, gated: cGated, gateLoc: gateLoc, via: via}
	d.decide()
}

// InlineResolver is what a Resolver may also do: give the function an
// argument expression is when the function is written there
// (cmds.forEach((c) => execSync(c)), xs.map(async (u) => fetch(u))).
type InlineResolver interface {
	Inline(e *extract.Expr) *extract.Func
}

// callbacks reads the functions written inline as arguments of c as part
// of the caller: they run for it (now, as forEach and map run them, or
// later, as then and setTimeout do). Which of their parameters get what is
// the callee's business, so every parameter carries caller data when any
// argument or the receiver does; what they return may be what the call
// gives (map, then), so it reaches the caller's return when the call's
// result does.
func (a *Analyzer) callbacks(e *Effects, c *extract.Call, mask uint64, priv privMask, returned, gated bool, via []extract.Loc, depth int) {
	ir, ok := a.Resolver.(InlineResolver)
	if !ok || c.Expr == nil {
		return
	}
	args := c.Expr.Args
	for _, kw := range c.Expr.Kw {
		args = append(args[:len(args):len(args)], kw.Value)
	}
	for _, x := range args {
		fn := ir.Inline(x)
		if fn == nil {
			continue
		}
		var pmask uint64
		if carries(c.Recv, mask) {
			pmask = ^uint64(0)
		}
		for _, arg := range c.Args {
			if carries(arg.Flow, mask) {
				pmask = ^uint64(0)
			}
		}
		sub := a.fnTyped(fn, pmask, privMask{}, returned, gated, append(via[:len(via):len(via)], c.Loc), depth+1, nil)
		for _, l := range Labels {
			for _, ev := range sub.Labels[l].Evidence {
				e.add(ev, sub.Labels[l].DecidedBy)
			}
		}
	}
}

// runsCallable adds the effects of the callable a runner call is handed
// (rules runs_callable): asyncio.to_thread(requests.post, url, data=body)
// is requests.post(url, data=body), loop.run_in_executor(None, fetch, u)
// is fetch(u) of the tree. A callable acg cannot name leaves the call
// unknown: it could run anything.
func (a *Analyzer) runsCallable(e *Effects, c *extract.Call, mask uint64, priv privMask, returned, gated bool, via []extract.Loc, depth int) {
	p, ok := a.Rules.CallableAt(c)
	if !ok || c.Expr == nil {
		return
	}
	var x *extract.Expr
	if p < len(c.Expr.Args) {
		x = c.Expr.Args[p]
	}
	rc := *c
	rc.Args = nil
	for _, arg := range c.Args {
		switch {
		case arg.Pos > p:
			arg.Pos -= p + 1
		case arg.Pos >= 0:
			continue // the callable and what comes before it
		}
		rc.Args = append(rc.Args, arg)
	}
	if x != nil && x.Kind == extract.ExprName && a.Resolver != nil {
		if fn := a.Resolver.FuncOf(x); fn != nil {
			sub := a.fn(fn, bindParams(&rc, fn, mask), a.privParams(&rc, fn, priv, depth), returned, gated, append(via[:len(via):len(via)], c.Loc), depth+1)
			for _, l := range Labels {
				for _, ev := range sub.Labels[l].Evidence {
					e.add(ev, sub.Labels[l].DecidedBy)
				}
			}
			return
		}
	}
	kind, name := "unknown", "the callable given to "+c.Qual
	if x != nil && x.Kind == extract.ExprName && x.Scope != nil {
		q, hk := "", extract.HeadImport
		if iq, ok := importedName(x); ok {
			q = iq
		} else if head, m, ok := strings.Cut(x.Name, "."); ok && !strings.Contains(m, ".") {
			// api.get_tasks with api = asana.TasksApi(client): a method of
			// the value a library call built.
			if bs := x.Scope.Lookup(head); len(bs) > 0 && bs[len(bs)-1].Kind == extract.BindAssign && bs[len(bs)-1].Value != nil &&
				bs[len(bs)-1].Value.Kind == extract.ExprCall && strings.HasSuffix(bs[len(bs)-1].Value.Type, "()") {
				q, hk = bs[len(bs)-1].Value.Type+"."+m, extract.HeadObject
			}
		}
		if q != "" {
			rc.Qual, rc.HeadKind = q, hk
			if kind, name = a.Rules.Classify(&rc); kind == "local" {
				kind = "unknown"
			}
		}
	}
	d := decision{a: a, e: e, c: &rc, kind: kind, name: name, mask: mask, priv: priv, depth: depth, returned: returned, gated: gated, via: via}
	d.decide()
}

// runsAgent reports whether c runs an agent the tree declares: invoke,
// run, stream … on the result of a call that builds one
// (agent = create_react_agent(...); agent.ainvoke(...)).
func runsAgent(c *extract.Call) bool {
	if c.Func == nil || !toolMethods[c.Method()] {
		return false
	}
	for _, o := range c.Recv {
		if o.Call < 0 || o.Call >= len(c.Func.Calls) {
			continue
		}
		if b := c.Func.Calls[o.Call]; b.BuildsAgent && strings.HasPrefix(c.Qual, b.Qual+"().") {
			return true
		}
	}
	return false
}

// runsTreeAgent reports whether c runs an agent of the tree by its
// variable (AgentRunResolver).
func (a *Analyzer) runsTreeAgent(c *extract.Call) bool {
	r, ok := a.Resolver.(AgentRunResolver)
	return ok && r.RunsTreeAgent(c)
}

// runsTreeCrew reports whether c runs a crew that a function of the tree
// builds: SomeCrew().crew().kickoff(...) where the @crew method returns a
// Crew(...). The crew's agents carry their tools' effects (the builder
// links them to the graph whose node runs it), so the call adds none.
func (a *Analyzer) runsTreeCrew(c *extract.Call) bool {
	m := c.Method()
	if a.Resolver == nil || !strings.HasPrefix(m, "kickoff") {
		return false
	}
	head, ok := strings.CutSuffix(c.Qual, "()."+m)
	if !ok {
		return false
	}
	rc := *c
	rc.Qual = head
	fn := a.Resolver.Callee(&rc)
	if fn == nil {
		// An imported class: its method by the class's name.
		rc.Qual = strings.ReplaceAll(head, "().", ".")
		fn = a.Resolver.Callee(&rc)
	}
	if fn == nil {
		return false
	}
	for _, x := range fn.Calls {
		if x.BuildsAgent || x.Qual == "crewai.Crew" || x.Qual == "crewai.crew.Crew" {
			return true
		}
	}
	return false
}

// toolMethods are the methods by which code runs a prebuilt tool object.
var toolMethods = map[string]bool{"invoke": true, "ainvoke": true, "run": true, "arun": true, "_run": true, "_arun": true, "run_async": true,
	"batch": true, "abatch": true, "stream": true, "astream": true, "__call__": true, "call": true, "forward": true}

// catalogCall decides a call of a catalogued prebuilt tool inside a tool
// body: building one does nothing, running one (invoke, run …) has the
// catalog's labels, decided by the catalog. It reports whether c was one.
func (a *Analyzer) catalogCall(e *Effects, c *extract.Call, gated bool, gateLoc extract.Loc, via []extract.Loc) bool {
	if a.Catalog == nil || (c.HeadKind != extract.HeadImport && c.HeadKind != extract.HeadObject) {
		return false
	}
	q := a.Rules.Normalize(c.Qual)
	// tool(...) on an instance (`draft = GmailCreateDraft(...); draft({...})`)
	// runs it: its qualified name ends in "()" where a constructor's does not.
	instance := strings.HasSuffix(c.Qual, "()")
	if ct := a.Catalog.Tool(q); ct != nil && isClassName(lastDot(q)) && ct.Kind != "factory" {
		if instance {
			a.ranCatalogTool(e, c, ct, q+"()", gated, gateLoc, via)
		}
		return true // constructing the tool: its effects come when it runs
	}
	if tk := a.Catalog.Toolkit(q); tk != nil && isClassName(lastDot(q)) {
		return true // building a toolkit does nothing: its tools act when they run
	}
	i := strings.LastIndexByte(q, '.')
	if i <= 0 {
		return false
	}
	if tk := a.Catalog.Toolkit(q[:i]); tk != nil && q[i+1:] == "get_tools" {
		// The toolkit's tools, handed to code that runs them: any of them
		// may run. A member the code picks by class is built directly
		// (GmailCreateDraft(api_resource=toolkit.api_resource)) and has
		// only its own labels.
		top, _, _ := strings.Cut(q, ".")
		for _, m := range tk.Tools {
			if ct := a.Catalog.Tool(top + "." + m); ct != nil {
				a.ranCatalogTool(e, c, ct, q, gated, gateLoc, via)
			}
		}
		for _, ct := range tk.ExtraTools {
			a.ranCatalogTool(e, c, ct, q, gated, gateLoc, via)
		}
		return true
	}
	if !toolMethods[q[i+1:]] {
		return false
	}
	if kit, ok := strings.CutSuffix(q[:i], ".get_tools()[]"); ok && a.Catalog.Toolkit(kit) != nil {
		// for t in toolkit.get_tools(): t.invoke(...): one of the members
		// runs, and the get_tools() call already holds their labels.
		return true
	}
	ct := a.Catalog.Tool(q[:i])
	if ct == nil || !isClassName(lastDot(q[:i])) {
		return false
	}
	a.ranCatalogTool(e, c, ct, q, gated, gateLoc, via)
	return true
}

// ranCatalogTool adds the catalog labels of a prebuilt tool that the call
// c (named q) runs inside a tool body.
func (a *Analyzer) ranCatalogTool(e *Effects, c *extract.Call, ct *CatalogTool, q string, gated bool, gateLoc extract.Loc, via []extract.Loc) {
	class := ct.Class
	if class == "" {
		class = ct.Name
	}
	detail := fmt.Sprintf("catalog: %s — %s (run by %s in the tool body)", class, ct.Summary, q)
	for _, l := range ct.Effects {
		e.add(Evidence{Label: l, Kind: "catalog", Loc: c.Loc, Detail: detail, Gated: gated, GateLoc: gateLoc, Via: via, Call: c}, ByCatalog)
	}
	for _, r := range ct.Roles {
		e.addRoleBy(r, ByCatalog)
	}
}

// dispatch decides a call through a dispatch table (`_OPS[op](a, b)` where
// `_OPS = {ast.Add: operator.add, …}` is bound once to a literal): the
// call runs one of the table's values, so it has the effects of all of
// them. It reports false, leaving the call unknown, when the table or any
// of its values cannot be read.
func (a *Analyzer) dispatch(e *Effects, c *extract.Call, mask uint64, priv privMask, returned, gated bool, via []extract.Loc, depth int) bool {
	table := dispatchTable(c)
	if table == nil || table.Kind != extract.ExprName || table.Scope == nil || strings.Contains(table.Name, ".") {
		return false
	}
	bs := table.Scope.Lookup(table.Name)
	if len(bs) != 1 || bs[0].Kind != extract.BindAssign || bs[0].Value == nil {
		return false // rebound or extended: not one literal
	}
	v := bs[0].Value
	if v.Kind != extract.ExprDict && v.Kind != extract.ExprList {
		return false
	}
	type entry struct {
		fn   *extract.Func
		qual string
	}
	var entries []entry
	for _, x := range v.Elems {
		if x == nil || x.Kind != extract.ExprName {
			return false
		}
		if a.Resolver != nil {
			if fn := a.Resolver.FuncOf(x); fn != nil {
				entries = append(entries, entry{fn: fn})
				continue
			}
		}
		q, ok := importedName(x)
		if !ok {
			return false
		}
		entries = append(entries, entry{qual: q})
	}
	if len(entries) == 0 {
		return false
	}
	for _, en := range entries {
		if en.fn != nil {
			sub := a.fn(en.fn, bindParams(c, en.fn, mask), a.privParams(c, en.fn, priv, depth), returned, gated, append(via[:len(via):len(via)], c.Loc), depth+1)
			for _, l := range Labels {
				for _, ev := range sub.Labels[l].Evidence {
					e.add(ev, sub.Labels[l].DecidedBy)
				}
			}
			continue
		}
		rc := *c
		rc.Qual, rc.HeadKind = en.qual, extract.HeadImport
		kind, name := a.Rules.Classify(&rc)
		if kind == "local" {
			kind = "unknown"
		}
		d := decision{a: a, e: e, c: c, kind: kind, name: name, mask: mask, priv: priv, depth: depth, returned: returned, gated: gated, via: via}
		d.decide()
	}
	return true
}

// pipe decides running a LangChain runnable sequence built with `|`
// (chain = prompt | llm | StrOutputParser(); chain.invoke(x)): it runs
// each part with the same method, so it has the effects of all of them.
// It reports false, leaving the call to the data rules, when the receiver
// is not a name bound only to pipes or a part has no known type.
func (a *Analyzer) pipe(e *Effects, c *extract.Call, mask uint64, priv privMask, returned, gated bool, via []extract.Loc, depth int) bool {
	m := c.Method()
	if !toolMethods[m] || c.Expr == nil || c.Expr.Recv != nil || c.Func == nil || depth > maxDepth {
		return false
	}
	recv, _, ok := strings.Cut(c.Expr.Name, ".")
	if !ok {
		return false
	}
	var parts []*extract.Expr
	if strings.Count(c.Expr.Name, ".") == 1 {
		bs := c.Func.Scope.Lookup(recv)
		if len(bs) == 0 {
			return false
		}
		for _, b := range bs {
			if b.Kind != extract.BindAssign || b.Value == nil || b.Value.Kind != extract.ExprPipe {
				return false
			}
			parts = append(parts, pipeParts(b.Value, 0)...)
		}
	} else {
		// self.chain.invoke(x), self.agents.writer.invoke(x): the pipes the
		// class stores in the attribute, in whichever method.
		ar, ok := a.Resolver.(AttrResolver)
		if !ok {
			return false
		}
		vs := ar.AttrValues(c)
		if len(vs) == 0 {
			return false
		}
		for _, v := range vs {
			if v.Kind != extract.ExprPipe {
				return false
			}
			parts = append(parts, pipeParts(v, 0)...)
		}
	}
	var calls []*extract.Call
	for _, p := range parts {
		switch {
		case p == nil:
			return false
		case p.Kind == extract.ExprDict || p.Kind == extract.ExprStr || p.Kind == extract.ExprFString:
			// A mapping of inputs (RunnableParallel of lambdas, whose calls
			// are the enclosing function's) or a template: nothing runs.
		case p.Type != "":
			rc := *c
			rc.Qual, rc.HeadKind = p.Type+"."+m, extract.HeadObject
			calls = append(calls, &rc)
		default:
			return false
		}
	}
	for _, rc := range calls {
		a.call(e, rc, mask, priv, returned, gated, via, depth+1)
	}
	return true
}

// pipeParts flattens a | b | c into its parts.
func pipeParts(x *extract.Expr, depth int) []*extract.Expr {
	if x == nil || x.Kind != extract.ExprPipe || len(x.Elems) != 2 || depth > 32 {
		return []*extract.Expr{x}
	}
	return append(pipeParts(x.Elems[0], depth+1), pipeParts(x.Elems[1], depth+1)...)
}

// dispatchTable is the table a call runs an entry of: _OPS[op](a, b), or
// fn(a, b) where fn's only binding is _OPS[op] or _OPS.get(op); else nil.
func dispatchTable(c *extract.Call) *extract.Expr {
	if c.Expr == nil {
		return nil
	}
	if c.Qual == "<expr>" {
		if r := c.Expr.Recv; r != nil && r.Kind == extract.ExprSubscript && len(r.Elems) > 0 {
			return r.Elems[0]
		}
		return nil
	}
	if c.Expr.Recv != nil || c.Expr.Name != c.Qual || strings.Contains(c.Qual, ".") || c.Func == nil {
		return nil
	}
	// Every binding of the name must look the same table up.
	var table *extract.Expr
	for _, b := range c.Func.Scope.Lookup(c.Qual) {
		if b.Kind != extract.BindAssign || b.Value == nil {
			return nil
		}
		var t *extract.Expr
		switch v := b.Value; {
		case v.Kind == extract.ExprSubscript && len(v.Elems) > 0 && v.Elems[0] != nil && v.Elems[0].Kind == extract.ExprName:
			t = v.Elems[0]
		case v.Kind == extract.ExprCall && v.Recv == nil && strings.HasSuffix(v.Name, ".get") && strings.Count(v.Name, ".") == 1:
			t = &extract.Expr{Kind: extract.ExprName, Name: strings.TrimSuffix(v.Name, ".get"), Scope: v.Scope, Loc: v.Loc}
		default:
			return nil
		}
		if table != nil && table.Name != t.Name {
			return nil
		}
		table = t
	}
	return table
}

// argTypes maps the callee's parameters to the types of the call's
// arguments: a typed value (a client built by a known call), or a
// parameter of the caller typed the same way.
func (a *Analyzer) argTypes(c *extract.Call, callee *extract.Func) map[int]string {
	if c.Expr == nil {
		return nil
	}
	offset := 0
	if len(callee.Params) > 0 && callee.Params[0].Injected && (callee.Params[0].Name == "self" || callee.Params[0].Name == "cls") {
		offset = 1
	}
	var out map[int]string
	set := func(idx int, x *extract.Expr) {
		if x == nil || idx < 0 || idx >= len(callee.Params) {
			return
		}
		ty := x.Type
		if ty == "" && x.Kind == extract.ExprName && c.Func != nil {
			for i, p := range c.Func.Params {
				if p.Name != x.Name {
					continue
				}
				if ty = a.ptypes[i]; ty == "" {
					ty = paramClass(c.Func, p) // store: BaseStore handed on
				}
			}
		}
		if !strings.HasSuffix(ty, "()") {
			if callee.Params[idx].DefaultCall == "" {
				return
			}
			ty = "" // passed, of a type acg does not know: not the default's type
		}
		if out == nil {
			out = map[int]string{}
		}
		out[idx] = ty
	}
	for i, x := range c.Expr.Args {
		if x != nil && x.Kind == extract.ExprSplat {
			return out
		}
		set(i+offset, x)
	}
	for _, kw := range c.Expr.Kw {
		for i, p := range callee.Params {
			if p.Name == kw.Name {
				set(i, kw.Value)
			}
		}
	}
	return out
}

func encodeTypes(m map[int]string) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%d=%s;", k, m[k])
	}
	return b.String()
}

// argTypedCall rewrites a method called on a parameter whose type the
// call site's argument gave (a.ptypes): service.users() is
// googleapiclient.discovery.build().users when the caller passed the
// result of build(...).
func (a *Analyzer) argTypedCall(c *extract.Call) (*extract.Call, bool) {
	if len(a.ptypes) == 0 || c.HeadKind != extract.HeadData || c.Func == nil || c.Expr == nil {
		return nil, false
	}
	recv, rest, ok := strings.Cut(c.Expr.Name, ".")
	if ok && rest == "" || c.Expr.Recv != nil {
		return nil, false
	}
	for i, p := range c.Func.Params {
		if p.Name == recv {
			if ty := a.ptypes[i]; ty != "" {
				rc := *c
				rc.Qual, rc.HeadKind = ty+"."+rest, extract.HeadObject
				if !ok {
					rc.Qual = ty // the parameter called itself (a node's writer(chunk))
				}
				return &rc, true
			}
		}
	}
	return nil, false
}

// attrTypedCall rewrites a method called on an attribute of self whose
// type the walker did not know (a call of data) but the values the class
// stores in it give (AttrResolver.AttrType).
// The calls chained on it (self.service.users().messages().list()) are
// methods of the typed result in turn.
func (a *Analyzer) attrTypedCall(c *extract.Call) (*extract.Call, bool) {
	if c.HeadKind != extract.HeadData || c.Func == nil || c.Expr == nil {
		return nil, false
	}
	var q string
	switch {
	case c.Expr.Recv != nil && strings.HasPrefix(c.Expr.Name, "."):
		prev, ok := a.chained[c.Expr.Recv]
		if !ok {
			return nil, false
		}
		q = prev + "()" + c.Expr.Name
	case c.Expr.Recv == nil && strings.Count(c.Expr.Name, ".") == 2 && strings.HasPrefix(c.Expr.Name, "self."):
		ar, ok := a.Resolver.(AttrResolver)
		if !ok {
			return nil, false
		}
		ty := ar.AttrType(c)
		if ty == "" {
			return nil, false
		}
		q = ty + "." + strings.SplitN(c.Expr.Name, ".", 3)[2]
	default:
		return nil, false
	}
	if a.chained == nil {
		a.chained = map[*extract.Expr]string{}
	}
	a.chained[c.Expr] = q // the expression, which copies of the call share
	rc := *c
	rc.Qual, rc.HeadKind = q, extract.HeadObject
	return &rc, true
}

// paramClass is the qualified class an annotated parameter names, as a
// value type ("langgraph.store.base.BaseStore()"), or "".
func paramClass(fn *extract.Func, p extract.Param) string {
	if p.Name == "self" || p.Name == "cls" {
		return ""
	}
	ty := annotationType(p.Annotation)
	if ty == "" {
		return ""
	}
	head, rest, _ := strings.Cut(ty, ".")
	bs := fn.Scope.Lookup(head)
	if len(bs) == 0 {
		return ""
	}
	switch b := bs[len(bs)-1]; b.Kind {
	case extract.BindImport:
		if b.Imp == nil {
			return ""
		}
		q := b.Imp.Qualified()
		if rest != "" {
			q += "." + rest
		}
		return q + "()"
	case extract.BindClass:
		return ty + "()"
	}
	return ""
}

// paramOwner is the function whose parameter name is, seen from fn: fn
// itself, or for a closure the enclosing function that binds it (a tool
// defined in a factory `def make(jira: JiraAPIWrapper)` uses the factory's
// parameter). nil when the nearest scope binding name has no parameter of
// that name.
func paramOwner(fn *extract.Func, name string) *extract.Func {
	for sc := fn.Scope; sc != nil; sc = sc.Parent {
		bs := sc.Bindings[name]
		if len(bs) == 0 {
			continue
		}
		for _, b := range bs {
			if b.Kind == extract.BindParam {
				return sc.Func // the annotation is the declared type, also where the body rebinds it
			}
		}
		return nil
	}
	return nil
}

// typedParamCall rewrites a method call on a parameter whose annotation
// names a type (`def send(client: httpx.Client, …)`: client.post(…) is
// httpx.Client().post) so that its type decides it, as for a local object
// built by a known call. A builtin annotation (str, list[str]) stays data.
func typedParamCall(c *extract.Call) (*extract.Call, bool) {
	if c.HeadKind != extract.HeadData || c.Func == nil || c.Expr == nil {
		return nil, false
	}
	recv, m, ok := strings.Cut(c.Expr.Name, ".")
	if !ok || strings.Contains(m, ".") || m != c.Method() {
		return nil, false
	}
	var ann string
	owner := paramOwner(c.Func, recv)
	if owner != nil {
		for _, p := range owner.Params {
			if p.Name == recv && p.Name != "self" && p.Name != "cls" {
				// Framework-injected objects are typed too (store: BaseStore);
				// the rewrite is kept only when the rules know the method.
				ann = p.Annotation
			}
		}
	}
	ty := annotationType(ann)
	if ty == "" {
		return nil, false
	}
	head, rest, _ := strings.Cut(ty, ".")
	bs := owner.Scope.Lookup(head)
	if len(bs) == 0 {
		return nil, false
	}
	q := ""
	switch b := bs[len(bs)-1]; b.Kind {
	case extract.BindImport:
		if b.Imp == nil {
			return nil, false
		}
		q = b.Imp.Qualified()
		if rest != "" {
			q += "." + rest
		}
	case extract.BindClass:
		q = ty
	default:
		return nil, false
	}
	rc := *c
	rc.Qual, rc.HeadKind = q+"()."+m, extract.HeadObject
	return &rc, true
}

// typedResultCall rewrites a method called on the result of a call that
// an annotated parameter types (conn.execute(sql).fetchone() with conn:
// sqlite3.Connection is sqlite3.Connection().execute().fetchone), when the
// rules know what the inner call is; otherwise the result stays a value of
// unknown type.
func (a *Analyzer) typedResultCall(c *extract.Call) (*extract.Call, bool) {
	inner := receiverCall(c)
	if inner == nil {
		return nil, false
	}
	if ty := a.returnType(inner); ty != "" {
		// _get_client().search(q): the helper returns a typed object.
		rc := *c
		rc.Qual, rc.HeadKind = ty+"."+c.Method(), extract.HeadObject
		return &rc, true
	}
	tc, ok := a.argTypedCall(inner)
	if !ok {
		tc, ok = typedParamCall(inner)
	}
	if !ok {
		if tc, ok = a.typedResultCall(inner); !ok {
			return nil, false
		}
	}
	if k, _ := a.Rules.Classify(tc); k == "unknown" {
		return nil, false
	}
	rc := *c
	rc.Qual, rc.HeadKind = tc.Qual+"()."+c.Method(), extract.HeadObject
	return &rc, true
}

// receiverCall is the call whose result a method is called on: the
// receiver itself (helper().query()), or the call a local of the function
// was assigned once (job = helper().query(sql); job.result()). nil when the
// receiver is anything else or c is not a method on plain data.
func receiverCall(c *extract.Call) *extract.Call {
	if c.HeadKind != extract.HeadData || c.Expr == nil {
		return nil
	}
	if r := c.Expr.Recv; r != nil {
		if r.Kind == extract.ExprCall {
			return r.Call
		}
		return nil
	}
	head, _, ok := strings.Cut(c.Expr.Name, ".")
	if !ok || strings.Count(c.Expr.Name, ".") != 1 || c.Func == nil || c.Func.Scope == nil {
		return nil
	}
	bs := c.Func.Scope.Bindings[head]
	if len(bs) != 1 || bs[0].Kind != extract.BindAssign || bs[0].Value == nil || bs[0].Value.Kind != extract.ExprCall {
		return nil
	}
	return bs[0].Value.Call
}

// returnType is the type of what a call of an in-tree function returns,
// when every return of it has the same known type (a client built in the
// helper, or a module object it hands out), else "".
//
// A helper that returns another in-tree helper's result
// (`return get_service("calendar")`, imported from the tree's auth module)
// has that helper's type: the chain is followed a few calls deep.
func (a *Analyzer) returnType(c *extract.Call) string { return a.returnTypeDepth(c, 0) }

func (a *Analyzer) returnTypeDepth(c *extract.Call, depth int) string {
	if depth > 4 || (c.HeadKind != extract.HeadLocal && c.HeadKind != extract.HeadImport) {
		return ""
	}
	fn := a.callee(c)
	if fn == nil || len(fn.ReturnExprs) == 0 {
		return ""
	}
	ty := ""
	for _, r := range fn.ReturnExprs {
		if r == nil {
			return ""
		}
		rt := r.Type
		if r.Kind == extract.ExprCall && r.Call != nil && a.callee(r.Call) != nil {
			// The type of an in-tree function's result is what that
			// function returns, not the function's own name.
			rt = a.returnTypeDepth(r.Call, depth+1)
		}
		if rt == "" || (ty != "" && rt != ty) {
			return ""
		}
		ty = rt
	}
	return ty
}

// annotationType is the class an annotation names, or "" for a builtin
// type, a generic container, a union or nothing ("Optional[X]" and
// "X | None" name X).
func annotationType(ann string) string {
	t := strings.Trim(strings.TrimSpace(ann), `"'`)
	for _, p := range []string{"Annotated[", "typing.Annotated[", "typing_extensions.Annotated["} {
		// Annotated[BaseStore, InjectedStore()] is a BaseStore.
		if rest, ok := strings.CutPrefix(t, p); ok {
			if i := strings.IndexAny(rest, ",]"); i > 0 && !strings.Contains(rest[:i], "[") {
				t = strings.TrimSpace(rest[:i])
			}
		}
	}
	for _, p := range []string{"Optional[", "typing.Optional["} {
		if strings.HasPrefix(t, p) && strings.HasSuffix(t, "]") {
			t = t[len(p) : len(t)-1]
		}
	}
	if a, b, ok := strings.Cut(t, "|"); ok {
		switch a, b = strings.TrimSpace(a), strings.TrimSpace(b); {
		case b == "None":
			t = a
		case a == "None":
			t = b
		default:
			return ""
		}
	}
	if t == "" || strings.ContainsAny(t, "[]|*, ") || !isClassName(lastDot(t)) {
		return "" // builtins are lower-case; generics and unions are not one class
	}
	return t
}

// importedName qualifies a dotted name whose head is an import
// (operator.add with `import operator` is "operator.add").
func importedName(x *extract.Expr) (string, bool) {
	head, rest, _ := strings.Cut(x.Name, ".")
	bs := x.Scope.Lookup(head)
	if len(bs) == 0 || bs[len(bs)-1].Kind != extract.BindImport || bs[len(bs)-1].Imp == nil {
		return "", false
	}
	q := bs[len(bs)-1].Imp.Qualified()
	if rest != "" {
		q += "." + rest
	}
	return q, true
}

func (a *Analyzer) callee(c *extract.Call) *extract.Func {
	if a.Resolver == nil || c.Gate {
		return nil
	}
	return a.Resolver.Callee(c)
}

// Gated reports whether a human approval always runs before c (see
// gatedCall); the provers use it so a gate sanitises a flow exactly when it
// gates an effect.
func (a *Analyzer) Gated(c *extract.Call) (bool, extract.Loc) { return a.gatedCall(c) }

// gatedCall reports whether a human approval always runs before c: a gate
// call among its dominators, or a call to a function that always gates.
func (a *Analyzer) gatedCall(c *extract.Call) (bool, extract.Loc) {
	for _, d := range c.Dominators() {
		if d.Gate {
			return true, d.Loc
		}
		if d.HeadKind == extract.HeadLocal || d.HeadKind == extract.HeadSelf || d.HeadKind == extract.HeadImport {
			if f := a.callee(d); f != nil && f.AlwaysGates {
				return true, d.Loc
			}
		}
	}
	return false, extract.Loc{}
}

// bindParams maps the caller-data mask through a call's arguments onto the
// callee's parameters.
func bindParams(c *extract.Call, callee *extract.Func, mask uint64) uint64 {
	return bindBy(c, callee, func(fl extract.Flow) bool { return carries(fl, mask) })
}

// privMask marks the parameters of a function that carry private data
// the caller read: data (a file, a mailbox, a database) and, apart, values
// read from the environment, which are private only where they reach the
// model or go out (settings.go), never by being handed on.
type privMask struct{ data, env uint64 }

// privParams marks the callee's parameters that get private data: data
// the caller read privately (a file, a mailbox) or got as private data
// itself, and values read from the environment.
func (a *Analyzer) privParams(c *extract.Call, callee *extract.Func, priv privMask, depth int) privMask {
	return privMask{
		data: bindBy(c, callee, func(fl extract.Flow) bool {
			_, ok := a.privateIn(c.Func, fl, priv, depth)
			return ok
		}),
		env: bindBy(c, callee, func(fl extract.Flow) bool {
			_, ok := a.envIn(c.Func, fl, priv, depth)
			return ok
		}),
	}
}

// bindBy maps the arguments of c for which has holds onto the callee's
// parameters.
func bindBy(c *extract.Call, callee *extract.Func, has func(extract.Flow) bool) uint64 {
	offset := 0
	if len(callee.Params) > 0 && callee.Params[0].Injected && (callee.Params[0].Name == "self" || callee.Params[0].Name == "cls") {
		offset = 1
	}
	var out uint64
	for _, arg := range c.Args {
		if !has(arg.Flow) {
			continue
		}
		idx := -1
		if arg.Kw != "" {
			for i, p := range callee.Params {
				if p.Name == arg.Kw {
					idx = i
				}
			}
		} else if arg.Pos+offset < len(callee.Params) {
			idx = arg.Pos + offset
			if p := callee.Params[idx]; strings.HasPrefix(p.Annotation, "*") {
				idx = -1
			}
		}
		if idx < 0 || idx >= 64 {
			return ^uint64(0) // splats and *args: every parameter may get the data
		}
		out |= 1 << uint(idx)
	}
	return out
}

func carries(fl extract.Flow, mask uint64) bool {
	for _, o := range fl {
		if o.Param >= 0 && o.Param < 64 && mask&(1<<uint(o.Param)) != 0 {
			return true
		}
	}
	return false
}

// callerStep returns the steps by which caller data reaches a flow.
func callerStep(fl extract.Flow, mask uint64) *extract.Step {
	for _, o := range fl {
		if o.Param >= 0 && o.Param < 64 && mask&(1<<uint(o.Param)) != 0 {
			return o.Step
		}
	}
	return nil
}

var secretPath = regexp.MustCompile(`(?i)(^|[/\\])\.env(\.|$)|\.ssh[/\\]|id_(rsa|dsa|ecdsa|ed25519)|\.aws[/\\]credentials|\.netrc|\.npmrc|\.pypirc|\.(pem|key|p12|pfx)$`)

// privateKinds are the call kinds whose results are private data sent
// out as such. The environment is not one here: what a tool reads from it
// and hands to a service (keys, endpoints, settings such as a search
// depth) configures the client; a key is sent to the provider by design.
var privateKinds = map[string]bool{"file_read": true, "file_list": true, "file_open": true,
	"db_fetch": true, "db_exec": true, "email_read": true, "message_read": true, "memory_read": true,
	"cloud_read": true, "remote_read": true, "shared_read": true, "vector_read": true}

// privateIn reports whether a flow of fn carries private data: the result
// of a call that reads it (by the rules, or a function of the tree whose
// result reads it), or a parameter in priv. It returns that call.
func (a *Analyzer) privateIn(fn *extract.Func, fl extract.Flow, priv privMask, depth int) (*extract.Call, bool) {
	return a.readIn(fn, fl, priv.data, depth, privateKinds)
}

// envKinds are the call kinds that read the process environment.
var envKinds = map[string]bool{"env_read": true}

// envIn reports whether a flow of fn carries a value read from the
// environment (directly, through a function of the tree that returns
// one, or a parameter in priv.env), and returns the read. A field of a
// settings object that holds no text (textFreeFields) carries none.
func (a *Analyzer) envIn(fn *extract.Func, fl extract.Flow, priv privMask, depth int) (*extract.Call, bool) {
	return a.readIn(fn, fl, priv.env, depth, envKinds)
}

// readIn reports whether a flow of fn carries the result of a call of
// one of kinds (by the rules, or a function of the tree whose result
// has one), or a parameter in mask. It returns that call.
func (a *Analyzer) readIn(fn *extract.Func, fl extract.Flow, mask uint64, depth int, kinds map[string]bool) (*extract.Call, bool) {
	if fn == nil {
		return nil, false
	}
	for _, o := range fl {
		if o.Param >= 0 && o.Param < 64 && mask&(1<<uint(o.Param)) != 0 {
			return nil, true
		}
		if o.Call < 0 || o.Call >= len(fn.Calls) {
			continue
		}
		src := fn.Calls[o.Call]
		kind, _ := a.Rules.Classify(src)
		if kinds[kind] {
			return src, true
		}
		if kind == "local" || kind == "unknown" {
			if callee := a.callee(src); callee != nil && depth < maxDepth {
				if o.Key != "" && textFreeFields(&extract.Call{ReturnFields: []string{o.Key}}, callee) {
					continue // cfg.max_pages: a number of the settings object
				}
				if sub := a.fn(callee, 0, privMask{}, true, false, nil, depth+1); sub.Has(ReadsPrivate) {
					for _, ev := range sub.Labels[ReadsPrivate].Evidence {
						if kinds[ev.Kind] {
							return src, true
						}
					}
				}
			}
		}
	}
	return nil, false
}
