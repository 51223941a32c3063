package typescript

import (
	"strconv"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Shared by the LangGraph.js, Mastra and MCP-server adapters (tsfw): the
// facts they read are the language-neutral ones the front end gives
// (ts-common conventions): an object literal is an ExprDict with ExprStr
// keys, an arrow function is a Func of its own named <outer>.<key> or
// <lambda@line> and referenced by an ExprName of that name, `new X()` is a
// call of X's qualified name.

// memberOf reports whether a qualified name is member of one of the
// modules, comparing the module exactly (a specifier may hold dots:
// @modelcontextprotocol/sdk/server/mcp.js).
func memberOf(q, member string, modules ...string) bool {
	// Compared in place: every call of every file is asked this by each
	// adapter.
	for _, m := range modules {
		if len(q) == len(m)+1+len(member) && q[len(m)] == '.' && strings.HasPrefix(q, m) && strings.HasSuffix(q, member) {
			return true
		}
	}
	return false
}

// objProp is the value of key in an object literal (following a name to the
// literal assigned to it), or nil.
func objProp(obj *extract.Expr, key string) *extract.Expr {
	obj = extract.Deref(obj)
	if obj == nil || obj.Kind != extract.ExprDict {
		return nil
	}
	for i, k := range obj.Keys {
		if k != nil && k.Kind == extract.ExprStr && k.Str == key && i < len(obj.Elems) {
			return obj.Elems[i]
		}
	}
	return nil
}

// objKeyLoc is where key is written in an object literal, for messages and
// edits; the literal's own location when absent.
func objKeyLoc(obj *extract.Expr, key string) extract.Loc {
	obj = extract.Deref(obj)
	if obj == nil {
		return extract.Loc{}
	}
	for _, k := range obj.Keys {
		if k != nil && k.Kind == extract.ExprStr && k.Str == key {
			return k.Loc
		}
	}
	return obj.Loc
}

func objStr(obj *extract.Expr, key string) (string, bool) {
	return extract.Deref(objProp(obj, key)).StrValue()
}

// fwFunc is the function an expression names: an arrow function or a
// function expression (a Func of its own), or a function declared in the
// file.
func fwFunc(f *extract.File, e *extract.Expr) *extract.Func {
	if e != nil && e.Kind == extract.ExprCall {
		// execute: withLogging("search", async (args) => ...): a wrapper
		// that returns the function it is given, the middleware shape of
		// tool registries. The function is the tool's body; the wrapper's
		// own bookkeeping (logging, timing, retries) is not read.
		for i := len(e.Args) - 1; i >= 0; i-- {
			if a := e.Args[i]; a != nil && a.Kind == extract.ExprName && a.Scope == nil {
				return fwFunc(f, a) // a function written in place
			}
		}
		return nil
	}
	if e == nil || e.Kind != extract.ExprName || e.Name == "" {
		return nil
	}
	for _, fn := range f.Funcs {
		if fn.Name == e.Name || fn.Qual == e.Name {
			return fn
		}
	}
	if d := extract.Deref(e); d != e {
		return fwFunc(f, d)
	}
	return nil
}

// flagApproval reads an approval flag (needsApproval, requireApproval):
// true gates every call; a function decides per call and may pass calls
// on its own, so it is recorded as conditional and gates nothing (fail
// closed); false, absent or unknown gates nothing.
func flagApproval(obj *extract.Expr, key, kind string) *extract.Approval {
	v := objProp(obj, key)
	if v == nil {
		return nil
	}
	d := extract.Deref(v)
	if on, known := d.Truthy(); known && d.Kind == extract.ExprBool {
		if !on {
			return nil
		}
		return &extract.Approval{Kind: kind, Loc: objKeyLoc(obj, key), All: true, Expr: v}
	}
	if d.Kind == extract.ExprNone {
		return nil
	}
	return &extract.Approval{Kind: kind, Loc: objKeyLoc(obj, key), Detail: "conditional", Expr: v}
}

// toolRefs are the tools an agent's `tools` option names: each member of a
// list literal or value of an object literal ({ readInbox, sendEmail }),
// else the expression itself (a variable, a call), which resolution
// follows or fails closed on.
func toolRefs(e *extract.Expr, node string) []extract.ToolRef {
	if e == nil {
		return nil
	}
	d := extract.Deref(e)
	switch {
	case d != nil && d.Kind == extract.ExprDict && !d.Spread:
		var out []extract.ToolRef
		for i, v := range d.Elems {
			ref := extract.ToolRef{Expr: v, Node: node}
			if i < len(d.Keys) && d.Keys[i] != nil && d.Keys[i].Kind == extract.ExprStr {
				ref.Key = d.Keys[i].Str
			}
			out = append(out, ref)
		}
		return out
	case d != nil && d.Kind == extract.ExprList:
		var out []extract.ToolRef
		for _, v := range d.Elems {
			out = append(out, extract.ToolRef{Expr: v, Node: node})
		}
		return out
	}
	return []extract.ToolRef{{Expr: e, Node: node}}
}

// fwVarName is the name a call's result is assigned to, or a name made from
// the callee and line.
func fwVarName(c *extract.Call, fallback string) string {
	if c.AssignedTo != "" {
		return c.AssignedTo
	}
	return fallback + "@" + strconv.Itoa(int(c.Loc.Start.Line+1))
}

// callQual is the qualified callee of a call expression: its call's Qual
// (`new X()` and chained calls included), else through the scope.
func callQual(e *extract.Expr) string {
	if e != nil && e.Call != nil {
		return e.Call.Qual
	}
	return extract.QualOf(e)
}

// keyedValues maps each call written as the value of a string key of an
// object literal that a function of f returns or a binding holds to that
// key ({ search: tool({...}) }).
func keyedValues(f *extract.File) map[*extract.Call]*extract.Expr {
	out := map[*extract.Call]*extract.Expr{}
	var visit func(e *extract.Expr, depth int)
	visit = func(e *extract.Expr, depth int) {
		if e == nil || depth > 6 || e.Kind != extract.ExprDict {
			return
		}
		for i, v := range e.Elems {
			if v == nil || i >= len(e.Keys) {
				continue
			}
			if k := e.Keys[i]; k != nil && k.Kind == extract.ExprStr && k.Str != "" && v.Call != nil {
				out[v.Call] = k
			}
			visit(v, depth+1)
		}
	}
	for _, fn := range f.Funcs {
		for _, r := range fn.ReturnExprs {
			visit(r, 0)
		}
		for _, bs := range fn.Scope.Bindings {
			for _, bd := range bs {
				visit(bd.Value, 0)
			}
		}
	}
	if f.Scope != nil {
		for _, bs := range f.Scope.Bindings {
			for _, bd := range bs {
				visit(bd.Value, 0)
			}
		}
	}
	return out
}
