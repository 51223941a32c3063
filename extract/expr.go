package extract

import "strings"

// ExprKind classifies the small expression model the framework adapters need:
// enough to read constructor arguments (tool lists, names, gate options)
// without keeping the parse tree alive.
type ExprKind uint8

const (
	ExprOther     ExprKind = iota
	ExprName               // identifier or dotted attribute chain: Name holds "a.b.c"
	ExprCall               // Name holds the callee as written ("agent.as_tool"); Recv holds a non-name receiver
	ExprList               // list, tuple or set literal: Elems
	ExprDict               // Keys[i] -> Elems[i]
	ExprStr                // string literal without interpolation: Str
	ExprBool               // True/False: Bool
	ExprNone               // None
	ExprNum                // numeric literal
	ExprConcat             // a + b (list or string concatenation): Elems
	ExprSplat              // *x inside a list: Elems[0]
	ExprSubscript          // x[...]: Elems[0] is x, Elems[1] the index
	ExprFString            // string with interpolation: Str is the constant prefix
	ExprComp               // a comprehension: Elems[0] is the element expression; Elems[1] the iterable and Name the loop variable of its first `for`, when simple
	ExprNot                // not x: Elems[0]
	ExprCompare            // a <op> b with one operator: Elems[0], Elems[1]; Str the operator ("is not", "in", "==")
	ExprBoolOp             // a and b, a or b: Elems[0], Elems[1]; Str the operator
	ExprPipe               // a | b: Elems[0], Elems[1] (a LangChain runnable sequence, a set or flag union)
	ExprCond               // a if c else b: Elems[0] a, Elems[1] b; Cond is c (either value may be the one at run time)
)

// Expr is a compact, tree-free copy of a Python expression.
//
// Field order matters for size: the small fields share one word, which
// keeps an Expr in the 256-byte allocation class (docs/performance.md
// "Memory"); there is one per expression of every file.
type Expr struct {
	Kind ExprKind
	Bool bool
	// Spread is set when a dict literal also has **x entries, whose keys
	// are not known (see Flows).
	Spread bool
	Name   string
	Str    string
	Recv   *Expr
	Args   []*Expr
	Kw     []KwArg
	Elems  []*Expr
	Keys   []*Expr
	// Flows are the flows of a dict literal's values (Elems[i]), which is
	// how a graph node's returned update says what reaches each state
	// field.
	Flows []Flow
	Loc   Loc
	// Scope is where names in the expression are looked up.
	Scope *Scope
	// Call links a call expression to its flow facts, when it has any.
	Call *Call
	// Type is the walker's guess of the value's type: the qualified callee
	// that built it plus "()" (see typeOf).
	Type string
	// Cond is the condition of a comprehension's single `if` clause
	// ([t for t in kit.get_tools() if t.name == "x"]), or nil.
	Cond *Expr
}

// KwArg is one keyword argument of a call.
type KwArg struct {
	Name  string
	Value *Expr
}

// Kwarg returns the keyword argument named name, or nil.
func (e *Expr) Kwarg(name string) *Expr {
	if e == nil {
		return nil
	}
	for _, k := range e.Kw {
		if k.Name == name {
			return k.Value
		}
	}
	return nil
}

// Arg returns keyword argument name, else positional argument pos (or nil).
// Most constructors accept both forms (create_react_agent(model, tools)).
func (e *Expr) Arg(pos int, name string) *Expr {
	if v := e.Kwarg(name); v != nil {
		return v
	}
	if e != nil && pos >= 0 && pos < len(e.Args) && e.Args[pos].Kind != ExprSplat {
		return e.Args[pos]
	}
	return nil
}

// Entry returns the value a dict literal gives a string key, or nil
// (also for anything that is not a dict literal).
func (e *Expr) Entry(key string) *Expr {
	if e == nil || e.Kind != ExprDict {
		return nil
	}
	for i, k := range e.Keys {
		if s, ok := k.StrValue(); ok && s == key && i < len(e.Elems) {
			return e.Elems[i]
		}
	}
	return nil
}

// StrValue returns the literal string value and whether the expression is one.
func (e *Expr) StrValue() (string, bool) {
	if e == nil || e.Kind != ExprStr {
		return "", false
	}
	return e.Str, true
}

// Truthy reports whether the expression is a literal that Python treats as
// true. Anything not literal counts as not known.
func (e *Expr) Truthy() (value, known bool) {
	if e == nil {
		return false, false
	}
	switch e.Kind {
	case ExprBool:
		return e.Bool, true
	case ExprNone:
		return false, true
	case ExprStr:
		return e.Str != "", true
	case ExprNum:
		return e.Str != "0" && e.Str != "0.0", true
	case ExprList, ExprDict:
		return len(e.Elems) > 0, true
	}
	return false, false
}

// Method returns the last dotted component of a call's callee.
func (e *Expr) Method() string {
	if e == nil {
		return ""
	}
	if i := strings.LastIndexByte(e.Name, '.'); i >= 0 {
		return e.Name[i+1:]
	}
	return e.Name
}

// Head returns the first dotted component of a name or callee.
func (e *Expr) Head() string {
	if e == nil {
		return ""
	}
	if i := strings.IndexByte(e.Name, '.'); i >= 0 {
		return e.Name[:i]
	}
	return e.Name
}
