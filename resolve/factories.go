package resolve

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// In-tree factories called with literal arguments: get_tools(["search",
// "write_email"], include_gmail=False) returns the tools those arguments
// select. While the factory's result is resolved, its parameters are bound
// to the call's arguments (or their defaults); a return or append under an
// `if` that the bound literals decide against is dropped, and a
// comprehension `[registry[name] for name in names]` over a literal list
// picks those entries of a dict literal. Anything the literals do not
// decide is kept, as before: resolution only ever narrows on proof.

// frame is one resolved call: parameter bindings to argument expressions,
// each read in the frame of the call that passed it.
type frame struct {
	args map[*extract.Binding]argVal
}

type argVal struct {
	e  *extract.Expr
	fr *frame
}

func (fr *frame) arg(bd *extract.Binding) (argVal, bool) {
	if fr == nil {
		return argVal{}, false
	}
	av, ok := fr.args[bd]
	return av, ok
}

// inFrame runs f with fr as the current frame.
func (b *builder) inFrame(fr *frame, f func() []member) []member {
	saved := b.fr
	b.fr = fr
	defer func() { b.fr = saved }()
	return f()
}

// bindArgs binds fn's parameters to the arguments of call e (positional,
// keyword, else the default). A parameter fed by *args or **kwargs, or
// without a value, stays unbound.
func (b *builder) bindArgs(fn *extract.Func, e *extract.Expr) *frame {
	fr := &frame{args: map[*extract.Binding]argVal{}}
	params := fn.Params
	if fn.Class != "" && len(params) > 0 && params[0].Injected && (params[0].Name == "self" || params[0].Name == "cls") {
		params = params[1:]
	}
	splat := false
	for _, a := range e.Args {
		if a != nil && a.Kind == extract.ExprSplat {
			splat = true
		}
	}
	for i, p := range params {
		var bd *extract.Binding
		for _, x := range fn.Scope.Bindings[p.Name] {
			if x.Kind == extract.BindParam {
				bd = x
				break
			}
		}
		if bd == nil {
			continue
		}
		if v := e.Kwarg(p.Name); v != nil {
			fr.args[bd] = argVal{v, b.fr}
			continue
		}
		if splat {
			continue
		}
		if v := e.Arg(i, ""); v != nil {
			fr.args[bd] = argVal{v, b.fr}
			continue
		}
		if p.Default != nil {
			fr.args[bd] = argVal{p.Default, nil}
		}
	}
	return fr
}

// liveBinding is the binding that gives a name its value here: the one
// found, or, when a condition the arguments decide rules it out, the
// latest earlier one that is not ruled out.
func (b *builder) liveBinding(e *extract.Expr, bd *extract.Binding) *extract.Binding {
	if b.fr == nil || bd.Kind != extract.BindAssign || !b.excluded(bd.Guards) {
		return bd
	}
	bs := e.Scope.Lookup(bd.Name)
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].Kind != extract.BindAppend && bs[i] != bd && !b.excluded(bs[i].Guards) {
			return bs[i]
		}
	}
	return bd
}

// excluded reports whether some guard is decided false (or, negated, true)
// by the literals in scope.
func (b *builder) excluded(gs []extract.Guard) bool {
	if b.fr == nil {
		return false
	}
	for _, g := range gs {
		if v, known := b.truth(g.Cond, 0); known && v == g.Neg {
			return true
		}
	}
	return false
}

// truth evaluates a condition over literals: names bound to literals,
// not, and/or, `is (not) None`, ==, != and (not) in.
func (b *builder) truth(e *extract.Expr, depth int) (value, known bool) {
	if e == nil || depth > 8 {
		return false, false
	}
	switch e.Kind {
	case extract.ExprNot:
		if len(e.Elems) == 1 {
			v, k := b.truth(e.Elems[0], depth+1)
			return !v, k
		}
	case extract.ExprBoolOp:
		if len(e.Elems) != 2 {
			return false, false
		}
		l, lk := b.truth(e.Elems[0], depth+1)
		r, rk := b.truth(e.Elems[1], depth+1)
		switch e.Str {
		case "and":
			if lk && !l || rk && !r {
				return false, true
			}
			return true, lk && rk
		case "or":
			if lk && l || rk && r {
				return true, true
			}
			return false, lk && rk
		}
	case extract.ExprCompare:
		if len(e.Elems) != 2 {
			return false, false
		}
		l, r := b.literal(e.Elems[0], 0), b.literal(e.Elems[1], 0)
		if l == nil || r == nil {
			return false, false
		}
		switch e.Str {
		case "is", "==":
			return sameLiteral(l, r)
		case "is not", "!=":
			v, k := sameLiteral(l, r)
			return !v, k
		case "in", "not in":
			if r.Kind != extract.ExprList && r.Kind != extract.ExprDict {
				return false, false
			}
			items := r.Elems
			if r.Kind == extract.ExprDict {
				items = r.Keys
			}
			found := false
			for _, x := range items {
				v, k := sameLiteral(l, b.literal(x, 0))
				if !k {
					return false, false
				}
				found = found || v
			}
			return found == (e.Str == "in"), true
		}
	default:
		if l := b.literal(e, 0); l != nil {
			return l.Truthy()
		}
	}
	return false, false
}

// sameLiteral compares two literals: None, booleans, strings and numbers.
func sameLiteral(a, c *extract.Expr) (bool, bool) {
	if a == nil || c == nil {
		return false, false
	}
	scalar := func(x *extract.Expr) bool {
		switch x.Kind {
		case extract.ExprNone, extract.ExprBool, extract.ExprStr, extract.ExprNum:
			return true
		}
		return false
	}
	if !scalar(a) || !scalar(c) {
		if a.Kind == extract.ExprNone || c.Kind == extract.ExprNone {
			// A list or dict literal is not None.
			return false, (a.Kind == extract.ExprList || a.Kind == extract.ExprDict || c.Kind == extract.ExprList || c.Kind == extract.ExprDict)
		}
		return false, false
	}
	if a.Kind != c.Kind {
		return false, true
	}
	switch a.Kind {
	case extract.ExprNone:
		return true, true
	case extract.ExprBool:
		return a.Bool == c.Bool, true
	}
	return a.Str == c.Str, true
}

// literal is the literal value an expression has here: itself, the value
// of a name assigned once to a literal, or of a parameter bound to one.
func (b *builder) literal(e *extract.Expr, depth int) *extract.Expr {
	if e == nil || depth > 8 {
		return nil
	}
	e = extract.Deref(e)
	switch e.Kind {
	case extract.ExprStr, extract.ExprNum, extract.ExprBool, extract.ExprNone, extract.ExprList, extract.ExprDict:
		return e
	case extract.ExprName:
		if e.Scope == nil || strings.Contains(e.Name, ".") {
			return nil
		}
		bs := e.Scope.Lookup(e.Name)
		if len(bs) == 0 || bs[len(bs)-1].Kind != extract.BindParam {
			return nil
		}
		av, ok := b.fr.arg(bs[len(bs)-1])
		if !ok {
			return nil
		}
		saved := b.fr
		b.fr = av.fr
		defer func() { b.fr = saved }()
		return b.literal(av.e, depth+1)
	}
	return nil
}

// comprehension resolves [registry[name] for name in NAMES] when NAMES is
// a literal list of strings and registry a dict literal (with its guarded
// updates): the entries the names pick. ok is false when either is not
// known.
func (b *builder) comprehension(e *extract.Expr, depth int) ([]member, bool) {
	if len(e.Elems) != 2 || e.Name == "" {
		return nil, false
	}
	el := e.Elems[0]
	if el == nil || el.Kind != extract.ExprSubscript || len(el.Elems) != 2 || el.Elems[1] == nil ||
		el.Elems[1].Kind != extract.ExprName || el.Elems[1].Name != e.Name {
		return nil, false
	}
	names := b.literal(e.Elems[1], 0)
	if names == nil || names.Kind != extract.ExprList {
		return nil, false
	}
	var keys []string
	for _, x := range names.Elems {
		s, ok := b.literal(x, 0).StrValue()
		if !ok {
			return nil, false
		}
		keys = append(keys, s)
	}
	entries, ok := b.dictEntries(el.Elems[0])
	if !ok {
		return nil, false
	}
	var out []member
	for _, k := range keys {
		for _, v := range entries[k] {
			out = append(out, b.members(v, depth+1)...)
		}
	}
	return out, true
}

// dictEntries reads a dict literal bound to a name, with the updates
// (d.update({...})) that no decided condition excludes: key -> values.
func (b *builder) dictEntries(c *extract.Expr) (map[string][]*extract.Expr, bool) {
	if c == nil || c.Kind != extract.ExprName || c.Scope == nil || strings.Contains(c.Name, ".") {
		return nil, false
	}
	out := map[string][]*extract.Expr{}
	add := func(d *extract.Expr) bool {
		d = extract.Deref(d)
		if d == nil || d.Kind != extract.ExprDict {
			return false
		}
		for i, k := range d.Keys {
			s, ok := k.StrValue()
			if !ok || i >= len(d.Elems) {
				return false
			}
			out[s] = append(out[s], d.Elems[i])
		}
		return true
	}
	bs := c.Scope.Lookup(c.Name)
	def := lastDefining(bs)
	if def == nil || def.Kind != extract.BindAssign {
		return nil, false
	}
	def = b.liveBinding(c, def)
	if !add(def.Value) {
		return nil, false
	}
	for _, x := range bs {
		if x.Kind == extract.BindAppend && x.Attr == "" && !b.excluded(x.Guards) {
			if !add(x.Value) {
				return nil, false
			}
		}
	}
	return out, true
}
