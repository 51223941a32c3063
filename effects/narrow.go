package effects

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// effects are the narrowed labels of a matching narrowing.
func (n *Narrowing) effects(t *CatalogTool, args string, loc extract.Loc, detail string) *Effects {
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
	v, st := argPath(t, ctor, t.ServerURL)
	if st != argFound {
		return nil
	}
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
// constructor, with the arguments as written and where the first is (the
// constructor itself when every condition is an absence).
func (n *Narrowing) match(t *CatalogTool, ctor *extract.Expr) (string, extract.Loc, bool) {
	var shown []string
	var loc extract.Loc
	for _, kw := range sortedKeys(n.When) {
		v, st := argPath(t, ctor, kw)
		val, isConst := "", false
		if st == argFound {
			val, isConst = constValue(v, 0)
		}
		if !wants(n.When[kw], st, val, isConst) {
			return "", loc, false
		}
		switch {
		case st == argAbsent:
			shown = append(shown, kw+" not set")
		case isConst:
			shown = append(shown, fmt.Sprintf("%s=%q", kw, val))
		default:
			shown = append(shown, kw+" set")
		}
		if st == argFound && !loc.Valid() {
			loc = v.Loc
		}
	}
	if !loc.Valid() {
		loc = ctor.Loc
	}
	return strings.Join(shown, ", "), loc, true
}

// wants reports whether an argument in state st (with its constant value,
// when it has one) satisfies a `when` value.
func wants(want string, st argState, val string, isConst bool) bool {
	for _, w := range strings.Split(want, "|") {
		switch w {
		case "absent":
			if st == argAbsent {
				return true
			}
		case "present":
			if st == argFound {
				return true
			}
		case "literal":
			if st == argFound && isConst {
				return true
			}
		default:
			if st == argFound && isConst && strings.EqualFold(w, val) {
				return true
			}
		}
	}
	return false
}

// Setting reads a constructor setting of a catalogued tool (a keyword or
// a path into the dicts it holds): the expression when it is written, and
// whether it is provably not written (set false when it cannot be read).
func (t *CatalogTool) Setting(ctor *extract.Expr, path string) (v *extract.Expr, absent bool) {
	v, st := argPath(t, ctor, path)
	return v, st == argAbsent
}

// argState says what is known of a constructor argument.
type argState uint8

const (
	argUnknown argState = iota // written in a way acg cannot read (a variable, a ** spread)
	argAbsent                  // provably not written
	argFound                   // written: the expression is returned
)

// argPath is the argument a `when` key names: a keyword (or the
// positional parameter of that name), or a path into the dict literals it
// holds (environment.network_policy.type), so that a setting nested in a
// config dict is read as written. A key is absent only when nothing could
// hold it: no positional argument in its place, no `**` spread.
func argPath(t *CatalogTool, ctor *extract.Expr, path string) (*extract.Expr, argState) {
	parts := strings.Split(path, ".")
	v, st := ctorArg(t, ctor, parts[0])
	for _, key := range parts[1:] {
		if st != argFound {
			return nil, st
		}
		v, st = dictKey(extract.Deref(v), key)
	}
	return v, st
}

// ctorArg is a constructor's argument by keyword or by its position.
func ctorArg(t *CatalogTool, ctor *extract.Expr, name string) (*extract.Expr, argState) {
	if v := ctor.Kwarg(name); v != nil {
		return v, argFound
	}
	pos := -1
	for i, p := range t.Params {
		if p == name {
			pos = i
		}
	}
	for i, a := range ctor.Args {
		if a.Kind == extract.ExprSplat {
			return nil, argUnknown // *args or **kwargs may hold it
		}
		if i == pos {
			return a, argFound
		}
	}
	if pos < 0 && len(ctor.Args) > 0 {
		return nil, argUnknown // positional arguments of unknown names
	}
	return nil, argAbsent
}

// dictKey reads one key of a dict literal, or of a call that builds a dict
// from its keywords (dict(...), the OpenAI SDK's TypedDict param types).
func dictKey(d *extract.Expr, key string) (*extract.Expr, argState) {
	if d == nil {
		return nil, argUnknown
	}
	switch d.Kind {
	case extract.ExprDict:
		known := !d.Spread // a JavaScript { ...opts } may hold any key
		for i, k := range d.Keys {
			s, ok := k.StrValue()
			if !ok {
				known = false // a ** spread or a computed key
				continue
			}
			if s == key && i < len(d.Elems) {
				return d.Elems[i], argFound
			}
		}
		if known {
			return nil, argAbsent
		}
	case extract.ExprCall:
		builtinDict := d.Call != nil && d.Call.HeadKind == extract.HeadBuiltin && d.Call.Qual == "builtins.dict"
		if q := extract.QualOf(d); !builtinDict && !strings.HasPrefix(q, "openai.types.") && !sdkParamTypes[q] {
			return nil, argUnknown
		}
		if v := d.Kwarg(key); v != nil {
			return v, argFound
		}
		if len(d.Args) == 0 {
			return nil, argAbsent
		}
	}
	return nil, argUnknown
}

// sdkParamTypes are the OpenAI SDK's TypedDict param types as the Agents
// SDK re-exports them (agents/tool.py imports them from
// openai.types.responses.tool_param): a call of one builds a dict.
var sdkParamTypes = map[string]bool{
	"agents.tool.CodeInterpreter": true, "agents.tool.ImageGeneration": true, "agents.tool.Mcp": true,
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
