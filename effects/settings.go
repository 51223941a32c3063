package effects

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Settings read from the environment.
//
// An environment read is private data (DESIGN.md vocabulary), but most
// reads configure: a model name handed to a model factory, a key handed
// to a client, a flag a branch tests, a loop bound. They are the tool's
// private leg only when the value can reach what the model sees (the
// tool's return value, a node's state update; a prompt reaches it through
// the model's answer) or goes out (a sink's data argument, decide.go
// envOut). The front end keeps which attributes of a call's value reach a
// return (extract.Call.ReturnFields); this file decides when those
// attributes cannot carry private text.

// textFreeFields reports whether the value a call of the tree returns
// reaches the caller's return only through fields that hold no text: the
// fields, of the class the callee builds, whose declared type is a
// number, a boolean, a Literal or an Enum of the tree (every value of
// such a field is written in the code or is a number). Then nothing read
// in the callee reaches the model through that call. Any other field, a
// field the class does not declare, or a class acg cannot find: false.
func textFreeFields(c *extract.Call, callee *extract.Func) bool {
	if len(c.ReturnFields) == 0 || callee == nil {
		return false
	}
	cls := builtClass(callee)
	if cls == nil {
		return false
	}
	for _, f := range c.ReturnFields {
		ann, ok := cls.AttrTypes[f]
		if !ok || !textFreeType(cls.Scope, ann) {
			return false
		}
	}
	return true
}

// builtClass is the class of the tree whose instance a function returns:
// the class its return annotation names in its own scope, or, for a
// method every return of which builds `cls(...)` or the class itself (a
// classmethod constructor such as from_runnable_config), its class.
func builtClass(fn *extract.Func) *extract.Class {
	if name := annotationType(fn.ReturnType); name != "" && !strings.Contains(name, ".") && fn.Scope != nil {
		if bs := fn.Scope.Lookup(name); len(bs) > 0 && bs[len(bs)-1].Kind == extract.BindClass {
			return bs[len(bs)-1].Class
		}
	}
	cls := fn.ClassDef
	if cls == nil || len(fn.ReturnExprs) == 0 {
		return nil
	}
	for _, r := range fn.ReturnExprs {
		if r == nil || r.Kind != extract.ExprCall || r.Recv != nil || (r.Name != "cls" && r.Name != cls.Name) {
			return nil
		}
	}
	return cls
}

// textFreeType reports whether a declared type holds no text: int, float,
// bool (optional or not), a Literal of constants, an Enum class of the
// same module.
func textFreeType(scope *extract.Scope, ann string) bool {
	t := strings.Trim(strings.TrimSpace(ann), `"'`)
	for _, p := range []string{"Optional[", "typing.Optional["} {
		if strings.HasPrefix(t, p) && strings.HasSuffix(t, "]") {
			t = strings.TrimSpace(t[len(p) : len(t)-1])
		}
	}
	if i := strings.LastIndexByte(t, '|'); i >= 0 {
		switch a, b := strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+1:]); {
		case b == "None":
			t = a
		case a == "None":
			t = b
		}
	}
	switch t {
	case "int", "float", "bool", "builtins.int", "builtins.float", "builtins.bool":
		return true
	}
	for _, p := range []string{"Literal[", "typing.Literal[", "typing_extensions.Literal["} {
		if strings.HasPrefix(t, p) && strings.HasSuffix(t, "]") {
			return true // Literal["summarize", "rerank"]: the code lists every value
		}
	}
	if scope == nil || !isClassName(t) || strings.ContainsAny(t, ".[ ") {
		return false
	}
	bs := scope.Lookup(t)
	if len(bs) == 0 || bs[len(bs)-1].Kind != extract.BindClass || bs[len(bs)-1].Class == nil {
		return false
	}
	for _, base := range bs[len(bs)-1].Class.Bases {
		if base != nil && base.Kind == extract.ExprName && isEnumBase(scope, base.Name) {
			return true
		}
	}
	return false
}

// isEnumBase reports whether a base class name is one of the enum module's
// classes, imported.
func isEnumBase(scope *extract.Scope, name string) bool {
	head, rest, _ := strings.Cut(name, ".")
	bs := scope.Lookup(head)
	if len(bs) == 0 || bs[len(bs)-1].Kind != extract.BindImport || bs[len(bs)-1].Imp == nil {
		return false
	}
	q := bs[len(bs)-1].Imp.Qualified()
	if rest != "" {
		q += "." + rest
	}
	switch q {
	case "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag":
		return true
	}
	return false
}
