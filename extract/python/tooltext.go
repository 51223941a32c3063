package python

import (
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// toolText judges the text a Python file's tools show the model:
// the docstring of a tool's function and every description= string
// (decorators, Tool(...) constructors, a class tool's description
// attribute). Files without tools are not read: their text reaches no
// model as a tool's.
func toolText(f *extract.File, src []byte, root *syntax.Node) {
	if f == nil || root == nil || len(f.Tools) == 0 {
		return
	}
	docOf := map[int]string{} // function name start byte → tool name
	for _, t := range f.Tools {
		if t.Func != nil && t.Func.Docstring && t.Func.NameLoc.File == f.Path {
			docOf[int(t.Func.NameLoc.Start.Byte)] = t.Name
		}
	}
	// toolAt names the tool whose decorator or constructor holds a
	// description string.
	toolAt := func(b int) string {
		for _, t := range f.Tools {
			for _, e := range []*extract.Expr{t.Decorator, t.Ctor} {
				if e != nil && int(e.Loc.Start.Byte) <= b && b < int(e.Loc.End.Byte) {
					return t.Name
				}
			}
		}
		for _, t := range f.Tools { // a class tool's description attribute
			if t.Kind == extract.ToolClass && t.Loc.File == f.Path && int(t.Loc.Start.Byte) <= b && b < int(t.Loc.End.Byte) {
				return t.Name
			}
		}
		return ""
	}
	described := func(b int, what string) (string, string) {
		if name := toolAt(b); name != "" {
			return "the description of tool " + name, name
		}
		return what, ""
	}
	var walk func(n *syntax.Node, class bool)
	walk = func(n *syntax.Node, class bool) {
		switch n.Type() {
		case "function_definition":
			if name := n.ChildByFieldName("name"); name != nil {
				if tool, ok := docOf[int(name.StartByte())]; ok {
					if body := n.ChildByFieldName("body"); body != nil && len(body.NamedChildren()) > 0 {
						first := body.NamedChildren()[0]
						if first.Type() == "expression_statement" && len(first.NamedChildren()) == 1 && isStr(first.NamedChildren()[0]) {
							s := first.NamedChildren()[0]
							extract.ScanText(f, src, int(s.StartByte()), int(s.EndByte()), "the docstring of tool "+tool, tool)
						}
					}
				}
			}
			class = false
		case "class_definition":
			class = true
		case "keyword_argument":
			if k, v := n.ChildByFieldName("name"), n.ChildByFieldName("value"); k != nil && v != nil && k.Content(src) == "description" && isStr(v) {
				what, subject := described(int(v.StartByte()), "a description string")
				extract.ScanText(f, src, int(v.StartByte()), int(v.EndByte()), what, subject)
			}
		case "assignment":
			// description: str = "…" / description = "…" in a class body.
			if l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right"); class && l != nil && r != nil && l.Content(src) == "description" && isStr(r) {
				what, subject := described(int(r.StartByte()), "a class tool's description")
				extract.ScanText(f, src, int(r.StartByte()), int(r.EndByte()), what, subject)
			}
		}
		for _, k := range n.NamedChildren() {
			walk(k, class)
		}
	}
	walk(root, false)
}

func isStr(n *syntax.Node) bool {
	return n != nil && (n.Type() == "string" || n.Type() == "concatenated_string")
}
