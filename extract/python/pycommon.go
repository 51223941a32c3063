package python

import (
	"fmt"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// enclosingName names an agent built without an explicit name or variable:
// the function that builds it (for a constructor or other dunder method,
// its class), else the constructor and line.
func enclosingName(c *extract.Call, ctor string) string {
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
func computedName(v *extract.Expr, c *extract.Call, ctor string) string {
	v = extract.Deref(v)
	if c.Func != nil && c.Func.ClassDef != nil {
		if v != nil && v.Kind == extract.ExprName {
			if head, attr, ok := strings.Cut(v.Name, "."); ok && (head == "self" || head == "cls") && !strings.Contains(attr, ".") {
				if s, ok := classAttrStr(c.Func.ClassDef, attr, 0); ok && s != "" {
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
func classAttrStr(cl *extract.Class, attr string, depth int) (string, bool) {
	if cl == nil || depth > 4 {
		return "", false
	}
	if s, ok := extract.Deref(cl.Attrs[attr]).StrValue(); ok {
		return s, true
	}
	for _, b := range cl.Bases {
		if b == nil || b.Kind != extract.ExprName || cl.Scope == nil {
			continue
		}
		if bs := cl.Scope.Lookup(b.Name); len(bs) > 0 && bs[len(bs)-1].Kind == extract.BindClass {
			if s, ok := classAttrStr(bs[len(bs)-1].Class, attr, depth+1); ok {
				return s, true
			}
		}
	}
	return "", false
}

// decoratorTarget returns the qualified name of a decorator (its callee for
// @deco(...)) and the call arguments, if any.
func decoratorTarget(d *extract.Expr) (string, *extract.Expr) {
	switch d.Kind {
	case extract.ExprCall:
		return extract.QualOf(d), d
	case extract.ExprName:
		return extract.QualOf(d), nil
	}
	return "", nil
}

// wrapperTool is a tool made by a call that wraps a function (Tool(f),
// FunctionTool(func=f)): named by name, else by the function; its body is
// the function when fref names one of this file.
func wrapperTool(c *extract.Call, framework extract.Framework, name string, fref *extract.Expr) *extract.Tool {
	if name == "" && fref != nil && fref.Kind == extract.ExprName {
		name = extract.LastDot(fref.Name)
	}
	t := &extract.Tool{Name: name, Symbol: c.AssignedTo, Framework: framework, Kind: extract.ToolFunc, FuncRef: fref,
		Ctor: c.Expr, Loc: c.Loc, NameLoc: c.Loc}
	if fref != nil && fref.Kind == extract.ExprName && !strings.Contains(fref.Name, ".") {
		t.Func = extract.FuncDef(fref.Scope, fref.Name)
	}
	return t
}

// truthyArg reports a literal truthy keyword argument.
func truthyArg(e *extract.Expr, kw string) (*extract.Expr, bool) {
	v := e.Kwarg(kw)
	if v == nil {
		return nil, false
	}
	t, known := extract.Deref(v).Truthy()
	return v, known && t
}
