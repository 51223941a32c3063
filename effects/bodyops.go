package effects

import (
	"strings"
	"unicode"

	"github.com/acg-dev/acg/extract"
)

// Batch requests. A write that takes a list of operations in its body
// (Google Sheets/Docs/Slides batchUpdate: body={"requests": [{"deleteSheet":
// {...}}]}) does what the operations' literal names say: one named
// delete... (deleteSheet, deleteRange, delete_object) is a deletion, and a
// deleted sheet or range is gone. Only literal dictionary keys are read,
// through the names the body is assigned to; a body acg cannot read adds
// nothing (the write itself is still a write).

// deleteOp is the first literal key of c's arguments that names a
// deletion, or "".
func deleteOp(c *extract.Call) string {
	if c.Expr == nil {
		return ""
	}
	for _, a := range c.Expr.Args {
		if k := deleteKey(a, 0); k != "" {
			return k
		}
	}
	for _, kw := range c.Expr.Kw {
		if k := deleteKey(kw.Value, 0); k != "" {
			return k
		}
	}
	return ""
}

func deleteKey(e *extract.Expr, depth int) string {
	e = extract.Deref(e)
	if e == nil || depth > 6 {
		return ""
	}
	switch e.Kind {
	case extract.ExprDict:
		for _, k := range e.Keys {
			if s, ok := k.StrValue(); ok && namesDelete(s) {
				return s
			}
		}
		fallthrough
	case extract.ExprList:
		for _, el := range e.Elems {
			if k := deleteKey(el, depth+1); k != "" {
				return k
			}
		}
	}
	return ""
}

// namesDelete reports an operation name that starts with the word delete:
// deleteSheet, delete_range, DeleteObject; not deleted or deleteable.
func namesDelete(s string) bool {
	if len(s) <= len("delete") || !strings.EqualFold(s[:len("delete")], "delete") {
		return false
	}
	r := rune(s[len("delete")])
	return r == '_' || unicode.IsUpper(r)
}
