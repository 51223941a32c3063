package extract

import (
	"fmt"
	"strings"
)

// calls returns every call site of the file with its expression.
func (f *File) Calls() []*Call {
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
				out = append(out, GraphConst(x))
			}
		}
	}
	return out
}

// StrArg returns a string literal argument.
func StrArg(e *Expr, pos int, kw string) (string, bool) {
	return Deref(e.Arg(pos, kw)).StrValue()
}

// addAgent appends an agent, giving it a file-unique id.
func (f *File) AddAgent(a *Agent) {
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
func (f *File) AddTool(t *Tool) {
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
func FuncDef(sc *Scope, name string) *Func {
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

// graphConst maps START/END names to LangGraph's node keys.
func GraphConst(e *Expr) string {
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
