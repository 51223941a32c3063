package extract

import (
	"fmt"
	"strings"
)

// calls returns every call site of the file with its expression.
func (f *File) calls() []*Call {
	var out []*Call
	for _, fn := range f.Funcs {
		for _, c := range fn.Calls {
			if c.Expr != nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// Deref follows a name to the value last assigned to it in the file, up to
// a few hops (x = y; y = [...]). Other expressions are returned unchanged.
func Deref(e *Expr) *Expr {
	for i := 0; i < 8 && e != nil && e.Kind == ExprName && e.Scope != nil && !strings.Contains(e.Name, "."); i++ {
		b := lastAssign(e.Scope.Lookup(e.Name))
		if b == nil || b.Value == nil {
			return e
		}
		e = b.Value
	}
	return e
}

func lastAssign(bs []*Binding) *Binding {
	for i := len(bs) - 1; i >= 0; i-- {
		switch bs[i].Kind {
		case BindAssign, BindLoop:
			return bs[i]
		case BindDef, BindClass, BindImport, BindParam:
			return nil
		}
	}
	return nil
}

// Strings reads a string literal or a list of string literals ("*" included).
func Strings(e *Expr) []string {
	e = Deref(e)
	if e == nil {
		return nil
	}
	if s, ok := e.StrValue(); ok {
		return []string{s}
	}
	var out []string
	if e.Kind == ExprList {
		for _, x := range e.Elems {
			x = Deref(x)
			if s, ok := x.StrValue(); ok {
				out = append(out, s)
			} else if x != nil && x.Kind == ExprName {
				out = append(out, graphConst(x))
			}
		}
	}
	return out
}

// graphConst maps START/END names to LangGraph's node keys.
func graphConst(e *Expr) string {
	if e == nil {
		return ""
	}
	if s, ok := e.StrValue(); ok {
		return s
	}
	q := QualOf(e)
	switch {
	case strings.HasSuffix(q, ".START") || e.Name == "START":
		return "__start__"
	case strings.HasSuffix(q, ".END") || e.Name == "END":
		return "__end__"
	}
	return e.Name
}

// StrArg returns a string literal argument.
func StrArg(e *Expr, pos int, kw string) (string, bool) {
	return Deref(e.Arg(pos, kw)).StrValue()
}

// enclosingName names an agent built without an explicit name or variable:
// the function that builds it (for a constructor or other dunder method,
// its class), else the constructor and line.
func enclosingName(c *Call, ctor string) string {
	if c.AssignedTo != "" {
		return c.AssignedTo
	}
	if c.Func != nil && c.Func.Name != "<module>" {
		if c.Func.Class != "" && strings.HasPrefix(c.Func.Name, "__") {
			return c.Func.Class
		}
		return c.Func.Name
	}
	return fmt.Sprintf("%s@%d", ctor, c.Loc.Start.Line)
}

// computedName names an agent whose name argument is not a literal. An
// attribute of the instance or class (name=self.name) is the class
// attribute's literal when the class (or a base in the file) sets one.
// Otherwise a method's agent is named after its class when built in a
// constructor (__init__ and other dunders: the instance's agent), else
// after the method (a factory method names what it makes); any other
// expression is named as if there were no name argument.
func computedName(v *Expr, c *Call, ctor string) string {
	v = Deref(v)
	if c.Func != nil && c.Func.class != nil {
		if v != nil && v.Kind == ExprName {
			if head, attr, ok := strings.Cut(v.Name, "."); ok && (head == "self" || head == "cls") && !strings.Contains(attr, ".") {
				if s, ok := classAttrStr(c.Func.class, attr, 0); ok && s != "" {
					return s
				}
			}
		}
		if strings.HasPrefix(c.Func.Name, "__") {
			return c.Func.Class
		}
		return c.Func.Name
	}
	return enclosingName(c, ctor)
}

// classAttrStr is the string literal a class (or a base class of the same
// file) assigns to an attribute at class level.
func classAttrStr(cl *Class, attr string, depth int) (string, bool) {
	if cl == nil || depth > 4 {
		return "", false
	}
	if s, ok := Deref(cl.Attrs[attr]).StrValue(); ok {
		return s, true
	}
	for _, b := range cl.Bases {
		if b == nil || b.Kind != ExprName || cl.Scope == nil {
			continue
		}
		if bs := cl.Scope.Lookup(b.Name); len(bs) > 0 && bs[len(bs)-1].Kind == BindClass {
			if s, ok := classAttrStr(bs[len(bs)-1].Class, attr, depth+1); ok {
				return s, true
			}
		}
	}
	return "", false
}

// addAgent appends an agent, giving it a file-unique id.
func (f *File) addAgent(a *Agent) {
	a.ID = uniqueID(f.Path+"#"+a.Name, func(id string) bool {
		for _, x := range f.Agents {
			if x.ID == id {
				return true
			}
		}
		return false
	})
	f.Agents = append(f.Agents, a)
}

// addTool appends a tool with a file-unique id based on its symbol.
func (f *File) addTool(t *Tool) {
	key := t.Symbol
	if key == "" {
		key = t.Name
	}
	t.ID = uniqueID(f.Path+"#"+key, func(id string) bool {
		for _, x := range f.Tools {
			if x.ID == id {
				return true
			}
		}
		return false
	})
	f.Tools = append(f.Tools, t)
}

// uniqueID returns base, or base~2, base~3 … whichever is not taken.
func uniqueID(base string, taken func(string) bool) string {
	id := base
	for n := 2; taken(id); n++ {
		id = fmt.Sprintf("%s~%d", base, n)
	}
	return id
}

// ToolByCall returns the tool created by a call expression, if any.
func (f *File) ToolByCall(c *Call) *Tool {
	for _, t := range f.Tools {
		if t.Ctor != nil && t.Ctor.Call == c {
			return t
		}
	}
	return nil
}

// ToolBySymbol returns the tool a module-level name refers to.
func (f *File) ToolBySymbol(sym string) *Tool {
	for _, t := range f.Tools {
		if t.Symbol == sym {
			return t
		}
	}
	return nil
}

// AgentByVar returns the agent assigned to a variable name in the file.
func (f *File) AgentByVar(v string) *Agent {
	var found *Agent
	for _, a := range f.Agents {
		if a.Var == v {
			found = a // the last assignment wins, as in Python
		}
	}
	return found
}

// funcDef returns the function a name refers to in a scope.
func funcDef(sc *Scope, name string) *Func {
	if sc == nil {
		return nil
	}
	bs := sc.Lookup(name)
	if len(bs) == 0 {
		return nil
	}
	if b := bs[len(bs)-1]; b.Kind == BindDef {
		return b.Func
	}
	return nil
}

// decoratorTarget returns the qualified name of a decorator (its callee for
// @deco(...)) and the call arguments, if any.
func decoratorTarget(d *Expr) (string, *Expr) {
	switch d.Kind {
	case ExprCall:
		return QualOf(d), d
	case ExprName:
		return QualOf(d), nil
	}
	return "", nil
}

// wrapperTool is a tool made by a call that wraps a function (Tool(f),
// FunctionTool(func=f)): named by name, else by the function; its body is
// the function when fref names one of this file.
func wrapperTool(c *Call, framework, name string, fref *Expr) *Tool {
	if name == "" && fref != nil && fref.Kind == ExprName {
		name = lastDot(fref.Name)
	}
	t := &Tool{Name: name, Symbol: c.AssignedTo, Framework: framework, Kind: ToolFunc, FuncRef: fref,
		Ctor: c.Expr, Loc: c.Loc, NameLoc: c.Loc}
	if fref != nil && fref.Kind == ExprName && !strings.Contains(fref.Name, ".") {
		t.Func = funcDef(fref.Scope, fref.Name)
	}
	return t
}

// truthyArg reports a literal truthy keyword argument.
func truthyArg(e *Expr, kw string) (*Expr, bool) {
	v := e.Kwarg(kw)
	if v == nil {
		return nil, false
	}
	t, known := Deref(v).Truthy()
	return v, known && t
}
