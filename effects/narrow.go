package effects

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Narrowed returns the effects of a catalogued tool built by ctor when its
// constructor fixes what the tool can do (catalog `narrow`), or nil when no
// narrowing applies. The matching argument is the evidence of every label.
func (t *CatalogTool) Narrowed(ctor *extract.Expr, detail string) *Effects {
	if ctor == nil {
		return nil
	}
	for _, n := range t.Narrow {
		args, loc, ok := n.match(ctor)
		if !ok {
			continue
		}
		why := fmt.Sprintf("%s; narrowed by %s: %s", detail, args, n.Why)
		e := newEffects()
		for _, l := range n.Effects {
			e.add(Evidence{Label: l, Kind: "catalog", Loc: loc, Detail: why}, ByCatalog)
		}
		roles := n.Roles
		if roles == nil {
			roles = t.Roles
		}
		for _, r := range roles {
			e.addRoleBy(r, ByCatalog)
		}
		e.settle(ByCatalog)
		return e
	}
	return nil
}

// hostedServer returns the effects of a hosted MCP tool whose server URL
// is fixed in the source and names a catalogued server: the union of that
// server's tools (and its default effects when its tool list is not
// verified), with the URL as evidence. nil when the URL is not constant
// or the server is not catalogued: the tool's own (fail-closed) entry
// stands.
func (c *Catalog) hostedServer(t *CatalogTool, ctor *extract.Expr) *Effects {
	if t.ServerURL == "" || ctor == nil {
		return nil
	}
	v := kwargPath(ctor, t.ServerURL)
	u, ok := constValue(v, 0)
	if !ok {
		return nil
	}
	s, _ := c.MCPServerFor("", nil, u)
	if s == nil {
		return nil
	}
	why := fmt.Sprintf("catalog: %s reaches the MCP server %s (%s) — %s", t.Class, s.ID, u, s.Summary)
	e := newEffects()
	var labels []Label
	var roles []string
	for _, mt := range s.Tools {
		labels = append(labels, mt.Effects...)
		roles = append(roles, mt.Roles...)
	}
	if s.ToolsUnverified || len(s.Tools) == 0 {
		labels = append(labels, s.DefaultEffects...) // tools the catalog may not name
	}
	for _, l := range labels {
		e.add(Evidence{Label: l, Kind: "catalog", Loc: v.Loc, Detail: why}, ByCatalog)
	}
	for _, r := range roles {
		e.addRoleBy(r, ByCatalog)
	}
	e.settle(ByCatalog)
	return e
}

// match reports whether every condition of a narrowing holds for the
// constructor, with the arguments as written and where the first is.
func (n *Narrowing) match(ctor *extract.Expr) (string, extract.Loc, bool) {
	var shown []string
	var loc extract.Loc
	for _, kw := range sortedKeys(n.When) {
		v := kwargPath(ctor, kw)
		val, ok := constValue(v, 0)
		if !ok {
			return "", loc, false
		}
		if want := n.When[kw]; want != "literal" && !strings.EqualFold(want, val) {
			return "", loc, false
		}
		if !loc.Valid() {
			loc = v.Loc
		}
		shown = append(shown, fmt.Sprintf("%s=%q", kw, val))
	}
	return strings.Join(shown, ", "), loc, true
}

// kwargPath is the argument a `when` key names: a keyword, or a path into
// the dict literals it holds (environment.network_policy.type), so that a
// setting nested in a config dict is read as written.
func kwargPath(ctor *extract.Expr, path string) *extract.Expr {
	parts := strings.Split(path, ".")
	v := ctor.Kwarg(parts[0])
	for _, key := range parts[1:] {
		d := extract.Deref(v)
		if d == nil || d.Kind != extract.ExprDict {
			return nil
		}
		v = nil
		for i, k := range d.Keys {
			if s, ok := k.StrValue(); ok && s == key && i < len(d.Elems) {
				v = d.Elems[i]
			}
		}
		if v == nil {
			return nil
		}
	}
	return v
}

// constValue is the value of an expression fixed in the source: a literal,
// or a name bound once to a literal. Anything the model or the run could
// choose is not constant.
func constValue(e *extract.Expr, depth int) (string, bool) {
	if e == nil || depth > 4 {
		return "", false
	}
	switch e.Kind {
	case extract.ExprStr, extract.ExprNum:
		return e.Str, true
	case extract.ExprBool:
		if e.Bool {
			return "true", true
		}
		return "false", true
	case extract.ExprNone:
		return "none", true
	case extract.ExprName:
		if e.Scope == nil || strings.Contains(e.Name, ".") {
			return "", false
		}
		bs := e.Scope.Lookup(e.Name)
		if len(bs) != 1 || bs[0].Kind != extract.BindAssign {
			return "", false // rebound, a parameter, an import: not fixed
		}
		return constValue(bs[0].Value, depth+1)
	}
	return "", false
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
