package gate

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
	"github.com/acg-dev/acg/extract/typescript"
)

// source is one Python file while a fix is planned: its text, tree and facts
// are re-derived after every step, so each step sees the code as the
// previous steps left it.
type source struct {
	path  string
	src   []byte
	tree  *sitter.Tree
	facts *extract.File
}

func parseSource(path string, src []byte) (*source, error) {
	if tsPath(path) {
		tree, err := typescript.Parse(context.Background(), path, src, nil)
		if err != nil {
			return nil, err
		}
		return &source{path: path, src: src, tree: tree, facts: typescript.Extract(path, src, tree)}, nil
	}
	tree, err := python.Parse(context.Background(), src, nil)
	if err != nil {
		return nil, err
	}
	return &source{path: path, src: src, tree: tree, facts: python.Extract(path, src, tree)}, nil
}

func (s *source) hasErrors() bool { return s.tree.RootNode().HasError() }

// edit is a replacement in one source's current text.
type edit struct {
	start, end int
	text       string
}

// apply applies edits (any order, not overlapping) and re-derives the source.
func (s *source) apply(edits []edit) (*source, error) {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	src := s.src
	for _, e := range edits {
		next := make([]byte, 0, len(src)+len(e.text))
		next = append(append(append(next, src[:e.start]...), e.text...), src[e.end:]...)
		src = next
	}
	return parseSource(s.path, src)
}

// nodeAt returns the deepest node spanning exactly [start, end), of the given
// type when typ is not "".
func nodeAt(n *sitter.Node, start, end int, typ string) *sitter.Node {
	var found *sitter.Node
	for n != nil {
		if int(n.StartByte()) == start && int(n.EndByte()) == end && (typ == "" || n.Type() == typ) {
			found = n
		}
		var next *sitter.Node
		for i := 0; i < int(n.ChildCount()); i++ {
			c := n.Child(i)
			if int(c.StartByte()) <= start && int(c.EndByte()) >= end {
				next = c
				break
			}
		}
		n = next
	}
	return found
}

func (s *source) node(l extract.Loc, typ string) *sitter.Node {
	return nodeAt(s.tree.RootNode(), int(l.Start.Byte), int(l.End.Byte), typ)
}

func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(src)
}

// indentAt is the indentation of the line holding off.
func indentAt(src []byte, off int) string {
	ls := lineStart(src, off)
	i := ls
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[ls:i])
}

// startsLine reports whether only indentation precedes off on its line.
func startsLine(src []byte, off int) bool {
	return strings.TrimSpace(string(src[lineStart(src, off):off])) == ""
}

// quote is the file's usual string quote: the one most string literals
// start with, double quotes when there are none.
func (s *source) quote() byte {
	var single, double int
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.Type() == "string" {
			body := strings.TrimLeft(n.Content(s.src), "rRbBuUfF")
			if strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, `'''`) {
				return // docstrings use """ whatever the file's style
			}
			if strings.HasPrefix(body, "'") {
				single++
			} else {
				double++
			}
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(s.tree.RootNode())
	if single > double {
		return '\''
	}
	return '"'
}

// str renders a string literal in the file's quote style.
func str(q byte, v string) string {
	v = strings.ReplaceAll(v, `\`, `\\`)
	v = strings.ReplaceAll(v, string(q), `\`+string(q))
	return string(q) + v + string(q)
}

// indentUnit is one level of the file's indentation, read off a function:
// its body's indentation minus its own.
func indentUnit(s *source, fn *extract.Func) string {
	if fn != nil && fn.BodyIndent != "" {
		def := indentAt(s.src, int(fn.Loc.Start.Byte))
		if strings.HasPrefix(fn.BodyIndent, def) && len(fn.BodyIndent) > len(def) {
			return fn.BodyIndent[len(def):]
		}
	}
	for _, f := range s.facts.Funcs {
		if f.BodyIndent != "" && f.Name != "<module>" {
			def := indentAt(s.src, int(f.Loc.Start.Byte))
			if strings.HasPrefix(f.BodyIndent, def) && len(f.BodyIndent) > len(def) {
				return f.BodyIndent[len(def):]
			}
		}
	}
	return "    "
}

// bound reports whether a module-level name is taken.
func (s *source) bound(name string) bool {
	return len(s.facts.Scope.Bindings[name]) > 0
}

// importName returns how the file can refer to module.name, adding an import
// when it has none: an existing `from module import name [as x]` gives x, a
// module import gives its alias plus ".name", else `from module import name`
// is added next to the file's other imports (into an existing import from the
// same module when there is one).
func (s *source) importName(module, name string) (string, []edit) {
	for _, im := range s.facts.Imports {
		if im.Level == 0 && im.Module == module && im.Symbol == name {
			return im.Local, nil
		}
	}
	for _, im := range s.facts.Imports {
		if im.Level == 0 && im.Module == module && im.Symbol == "" {
			return im.Local + "." + name, nil
		}
	}
	local, text := name, name
	if s.bound(name) {
		local = "lg_" + name
		text = name + " as " + local
	}
	root := s.tree.RootNode()
	for i := 0; i < int(root.NamedChildCount()); i++ {
		st := root.NamedChild(i)
		if st.Type() != "import_from_statement" {
			continue
		}
		mod := st.ChildByFieldName("module_name")
		if mod == nil || mod.Type() != "dotted_name" || mod.Content(s.src) != module {
			continue
		}
		var last *sitter.Node
		wildcard := false
		for j := 0; j < int(st.NamedChildCount()); j++ {
			c := st.NamedChild(j)
			switch {
			case c.Type() == "wildcard_import":
				wildcard = true
			case st.FieldNameForChild(namedIndex(st, j)) == "name":
				last = c
			}
		}
		if last != nil && !wildcard {
			return local, []edit{{int(last.EndByte()), int(last.EndByte()), ", " + text}}
		}
	}
	at, after := s.importPoint(module)
	line := "from " + module + " import " + text + "\n"
	return local, []edit{{at, at, line + after}}
}

// namedIndex maps the j-th named child to its index among all children, for
// FieldNameForChild.
func namedIndex(n *sitter.Node, j int) int {
	seen := -1
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.Child(i).IsNamed() {
			seen++
			if seen == j {
				return i
			}
		}
	}
	return -1
}

// importPoint is where a new `from module import …` line goes: among the
// file's leading imports, in the last group of absolute imports (groups are
// separated by blank lines), in alphabetical order; with no imports, after
// the module docstring and `from __future__` imports. after is text to put
// after the line (a blank line before code).
func (s *source) importPoint(module string) (at int, after string) {
	root := s.tree.RootNode()
	type imp struct {
		start, end int
		module     string
		relative   bool
		from       bool
	}
	var imps []imp
	head := 0 // end of leading comments, docstring and __future__ imports
scan:
	for i := 0; i < int(root.NamedChildCount()); i++ {
		st := root.NamedChild(i)
		switch st.Type() {
		case "comment":
			if len(imps) == 0 {
				head = lineEndAfter(s.src, int(st.EndByte()))
			}
		case "expression_statement":
			if len(imps) > 0 || !onlyCommentsBefore(root, i) || st.NamedChildCount() != 1 || st.NamedChild(0).Type() != "string" {
				break scan
			}
			head = lineEndAfter(s.src, int(st.EndByte())) // the module docstring
		case "future_import_statement":
			head = lineEndAfter(s.src, int(st.EndByte()))
		case "import_statement", "import_from_statement":
			m, rel := "", false
			if st.Type() == "import_from_statement" {
				if mn := st.ChildByFieldName("module_name"); mn != nil {
					m, rel = mn.Content(s.src), mn.Type() == "relative_import"
				}
			} else if st.NamedChildCount() > 0 {
				first := st.NamedChild(0)
				m = first.Content(s.src)
				if f := first.ChildByFieldName("name"); f != nil {
					m = f.Content(s.src)
				}
			}
			imps = append(imps, imp{int(st.StartByte()), lineEndAfter(s.src, int(st.EndByte())), m, rel, st.Type() == "import_from_statement"})
		default:
			break scan
		}
	}
	if len(imps) == 0 {
		if head == 0 {
			return 0, "\n"
		}
		return head, ""
	}
	// The last group of absolute imports.
	lastAbs := -1
	for i, im := range imps {
		if !im.relative {
			lastAbs = i
		}
	}
	if lastAbs < 0 {
		return lineStart(s.src, imps[0].start), ""
	}
	first := lastAbs
	for first > 0 && !imps[first-1].relative && !blankBetween(s.src, imps[first-1].end, imps[first].start) {
		first--
	}
	// isort's habit: plain imports first, then `from` imports by module.
	for i := first; i <= lastAbs; i++ {
		if imps[i].from && imps[i].module > module {
			return lineStart(s.src, imps[i].start), ""
		}
	}
	return imps[lastAbs].end, ""
}

func onlyCommentsBefore(root *sitter.Node, i int) bool {
	for j := 0; j < i; j++ {
		if root.NamedChild(j).Type() != "comment" {
			return false
		}
	}
	return true
}

// lineEndAfter is the start of the line after off's line.
func lineEndAfter(src []byte, off int) int {
	e := lineEnd(src, off)
	if e < len(src) {
		return e + 1
	}
	return e
}

// blankBetween reports a blank line between the end of one import (the
// start of the line after it) and the start of the next.
func blankBetween(src []byte, a, b int) bool {
	b = lineStart(src, b)
	if a >= b {
		return false
	}
	for _, l := range bytes.Split(bytes.TrimSuffix(src[a:b], []byte("\n")), []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			return true
		}
	}
	return false
}

// insertItem adds an item at the end of a bracketed sequence: a call's
// argument list, a list, or a dict. It keeps the layout: one item per line
// (with the trailing-comma habit of the sequence) or all on one line.
func insertItem(src []byte, seq *sitter.Node, item string) ([]edit, error) {
	if seq.ChildCount() < 2 {
		return nil, fmt.Errorf("unexpected %s", seq.Type())
	}
	closer := seq.Child(int(seq.ChildCount()) - 1)
	var last *sitter.Node
	trailing := false
	for i := 0; i < int(seq.ChildCount())-1; i++ {
		c := seq.Child(i)
		switch {
		case c.Type() == "comment":
		case c.IsNamed():
			last, trailing = c, false
		case c.Type() == ",":
			trailing = last != nil
		}
	}
	cl := int(closer.StartByte())
	if last == nil {
		open := int(seq.Child(0).EndByte())
		return []edit{{open, open, item}}, nil
	}
	le := int(last.EndByte())
	if startsLine(src, cl) && lineStart(src, cl) > le {
		// One item per line: the new one goes on its own line before the
		// closing bracket, indented like the last item.
		ind := indentAt(src, int(last.StartByte()))
		ls := lineStart(src, cl)
		if trailing {
			return []edit{{ls, ls, ind + item + ",\n"}}, nil
		}
		return []edit{{le, le, ","}, {ls, ls, ind + item + "\n"}}, nil
	}
	if trailing {
		return []edit{{cl, cl, " " + item}}, nil
	}
	return []edit{{le, le, ", " + item}}, nil
}
