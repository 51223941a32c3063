package resolve

import (
	"strings"
	"sync"

	"github.com/acg-dev/acg/extract"
)

// Construction sites: a class that takes a helper in its constructor and
// keeps it (def __init__(self, browser): self.browser = browser) calls
// that helper's methods through self, and the attribute's type is what
// the code that builds the class passes. Every site must pass a value of
// one type; a site acg cannot type, a splat, or an in-tree subclass (whose
// own constructor may pass anything up) leaves the attribute untyped, so
// the methods called on it fail closed as before.
//
// A site that builds the class imports it, so it is in the same closed
// group of files as the class (incremental/components.go): the sites seen
// from one group's build are all the sites there are.

// ctorSites indexes, once per Index, the calls and subclass bases that
// name a class by its last dotted part; resolution then keeps those that
// really name the class.
type ctorSites struct {
	once  sync.Once
	calls map[string][]*extract.Call
	bases map[string]bool
}

func (ix *Index) siteIndex() *ctorSites {
	cs := ix.ctors
	cs.once.Do(func() {
		cs.calls, cs.bases = map[string][]*extract.Call{}, map[string]bool{}
		for _, f := range ix.files {
			for _, c := range f.Calls() {
				if c.HeadKind == extract.HeadImport || c.HeadKind == extract.HeadLocal {
					n := extract.LastDot(c.Qual)
					cs.calls[n] = append(cs.calls[n], c)
				}
			}
			for _, cl := range f.Classes {
				for _, b := range cl.Bases {
					if b != nil {
						cs.bases[extract.LastDot(b.Name)] = true
					}
				}
			}
		}
	})
	return cs
}

// ctorParamType reports whether v, a value the class stores in an
// attribute, is a parameter of the class's __init__, and if so the value
// type ("T()") every construction site passes for it, or "" when the
// sites do not settle one.
func (ix *Index) ctorParamType(cl *extract.Class, v *extract.Expr) (string, bool) {
	if v == nil || v.Kind != extract.ExprName || v.Scope == nil || strings.Contains(v.Name, ".") {
		return "", false
	}
	init := cl.Methods["__init__"]
	if init == nil || v.Scope.Func != init {
		return "", false
	}
	idx := -1
	for i, p := range init.Params {
		if p.Name == v.Name {
			idx = i
		}
	}
	if idx <= 0 {
		return "", false // not a parameter (or self)
	}
	cs := ix.siteIndex()
	if cs.bases[cl.Name] {
		return "", true
	}
	ty := ""
	for _, c := range cs.calls[cl.Name] {
		if !ix.builds(c, cl) {
			continue
		}
		if c.Expr == nil {
			return "", true
		}
		for _, a := range c.Expr.Args {
			if a != nil && a.Kind == extract.ExprSplat {
				return "", true
			}
		}
		arg := c.Expr.Arg(idx-1, v.Name)
		if arg == nil {
			if d := init.Params[idx].Default; d == nil || d.Kind == extract.ExprNone {
				// A required argument left out (the call raises), or a None
				// default stored as is: no object whose methods run.
				continue
			}
			return "", true // another default: its type is not recorded here
		}
		at := arg.Type
		if !strings.HasSuffix(at, "()") || ty != "" && at != ty {
			return "", true
		}
		ty = at
	}
	return ty, true
}

// builds reports whether c is a call of cl itself (its constructor).
func (ix *Index) builds(c *extract.Call, cl *extract.Class) bool {
	var sc *extract.Scope
	switch {
	case c.Func != nil:
		sc = c.Func.Scope
	case c.Expr != nil:
		sc = c.Expr.Scope
	}
	if sc == nil {
		return false
	}
	t, ok := ix.lookupOrQualified(sc, c.Qual)
	return ok && t.bind != nil && t.bind.Kind == extract.BindClass && t.bind.Class == cl && !strings.Contains(t.name, ".")
}
