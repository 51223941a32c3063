package python

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/extract"
)

// A Jupyter notebook (nbformat 4) is read as the Python module its code
// cells form, in order (docs/architecture.md "Notebooks"). What IPython
// runs that is not Python (magics, shell escapes, help) is put out of the
// way so the rest parses; nothing of the notebook is ever run. Every byte
// of the module keeps the offset of the JSON byte that holds it, so facts
// point into the .ipynb file.

// NotebookExt is the file ending of Jupyter notebooks.
const NotebookExt = ".ipynb"

// Notebook returns the Python module of the notebook src (rel is its
// path, for the locations of problems). A file that is not a notebook
// acg can read (invalid JSON, no cells, nbformat 3) is an error; a
// notebook whose kernel is another language has no code. A cell that does
// not parse is left out, as Jupyter runs none of a cell that does not
// compile, and is reported as an unread Problem.
func Notebook(rel string, src []byte) (*extract.Embedded, error) {
	v, err := extract.ParseJSONC(src)
	if err != nil {
		if je, ok := err.(*extract.JSONError); ok {
			p := extract.PointAt(src, extract.LineStarts(src), je.Offset)
			return nil, fmt.Errorf("not read: invalid JSON at %d:%d: %s", p.Line, p.Col, je.Msg)
		}
		return nil, fmt.Errorf("not read: invalid JSON: %w", err)
	}
	if v.Kind != extract.JSONObject {
		return nil, fmt.Errorf("not read: a notebook is a JSON object")
	}
	cells := v.Get("cells")
	if cells == nil || cells.Kind != extract.JSONArray {
		if v.Get("worksheets") != nil {
			return nil, fmt.Errorf("not read: an nbformat 3 notebook (acg reads nbformat 4; jupyter nbconvert --to notebook converts it)")
		}
		return nil, fmt.Errorf("not read: no \"cells\" array, so not an nbformat 4 notebook")
	}
	if lang := notebookLanguage(v); lang != "" && lang != "python" {
		// An R or Julia notebook is outside what acg reads, as an .R file is.
		return &extract.Embedded{}, nil
	}
	nb := &notebook{rel: rel, src: src, lines: extract.LineStarts(src)}
	for _, c := range cells.Elems {
		if t, _ := c.Get("cell_type").String(); t != "code" {
			continue
		}
		nb.cells = append(nb.cells, nb.decode(c.Get("source")))
	}
	e := nb.module(nil)
	bad, contained := nb.badCells(e)
	if len(bad) == 0 {
		return e, nil
	}
	// A cell that does not parse is read as the parser recovered it, as a
	// .py file is, when its errors stay inside it (the grammar may reject
	// what CPython compiles); when they spill into other cells, it is left
	// out, so that one broken cell does not cost its neighbours.
	if !contained {
		skip := map[int]bool{}
		for _, b := range bad {
			skip[b.cell] = true
		}
		e = nb.module(skip)
	}
	for _, b := range bad {
		b.problem.Message = fmt.Sprintf("code cell %d does not parse as Python: ", b.cell+1)
		if contained {
			b.problem.Message += "acg read what the parser recovered of it, which may miss agents or tools in it (if it does not compile, Jupyter runs none of it)"
		} else {
			b.problem.Message += "acg did not read it (if it does not compile, Jupyter runs none of it)"
		}
		e.Problems = append(e.Problems, b.problem)
	}
	return e, nil
}

// NotebookModule is the module and package a notebook's facts carry: those
// of a .py file in its place (a notebook is not importable, so no module
// key finds it; its own imports resolve from its directory, as Jupyter's
// working directory makes them).
func NotebookModule(rel string) (module, pkg string) {
	return ModuleName(strings.TrimSuffix(rel, NotebookExt) + ".py")
}

// ExtractNotebook extracts a notebook's module (the code Notebook made,
// parsed): Extract, with the notebook's module name.
func ExtractNotebook(rel string, code []byte, tree *sitter.Tree) *extract.File {
	f := Extract(rel, code, tree)
	f.Module, f.Package = NotebookModule(rel)
	return f
}

func notebookLanguage(v *extract.JSONValue) string {
	md := v.Get("metadata")
	for _, path := range [][2]string{{"kernelspec", "language"}, {"language_info", "name"}} {
		if s, ok := md.Get(path[0]).Get(path[1]).String(); ok && s != "" {
			return strings.ToLower(s)
		}
	}
	return ""
}

type notebook struct {
	rel   string
	src   []byte
	lines []int
	cells []cellText
	// ranges are each cell's bytes in the module last made.
	ranges [][2]int
}

// cellText is one code cell's source decoded: each byte with the offset of
// the JSON byte it comes from, and whether it was made from an escape.
type cellText struct {
	text []byte
	off  []int
	made []bool
	end  int // the file offset just after the source's last byte
}

// decode reads a cell's source: a string, or a list of strings joined.
func (nb *notebook) decode(v *extract.JSONValue) cellText {
	var c cellText
	if v == nil {
		return c
	}
	var parts []*extract.JSONValue
	switch v.Kind {
	case extract.JSONString:
		parts = []*extract.JSONValue{v}
	case extract.JSONArray:
		parts = v.Elems
	}
	for _, p := range parts {
		if p.Kind != extract.JSONString {
			continue
		}
		nb.decodeString(&c, p.Start+1, p.End-1)
		c.end = p.End - 1
	}
	return c
}

func (c *cellText) add(b []byte, off int, made bool) {
	for _, x := range b {
		c.text = append(c.text, x)
		c.off = append(c.off, off)
		c.made = append(c.made, made)
		if !made {
			off++
		}
	}
}

// decodeString appends the JSON string body src[start:end] decoded.
func (nb *notebook) decodeString(c *cellText, start, end int) {
	src := nb.src
	for i := start; i < end; {
		if src[i] != '\\' || i+1 >= end {
			j := i
			for j < end && src[j] != '\\' {
				j++
			}
			if j == i {
				j++
			}
			c.add(src[i:j], i, false)
			i = j
			continue
		}
		at := i
		switch esc := src[i+1]; esc {
		case 'n':
			c.add([]byte{'\n'}, at, true)
		case 't':
			c.add([]byte{'\t'}, at, true)
		case 'r':
			c.add([]byte{'\r'}, at, true)
		case 'b':
			c.add([]byte{'\b'}, at, true)
		case 'f':
			c.add([]byte{'\f'}, at, true)
		case 'u':
			r, n := nb.unicodeEscape(i, end)
			var buf [utf8.UTFMax]byte
			c.add(buf[:utf8.EncodeRune(buf[:], r)], at, true)
			i += n
			continue
		default: // \" \\ \/ (the parser accepted the string)
			c.add([]byte{esc}, at, true)
		}
		i += 2
	}
}

// unicodeEscape reads \uXXXX (and a surrogate pair's second half) at i.
func (nb *notebook) unicodeEscape(i, end int) (rune, int) {
	hex := func(at int) (rune, bool) {
		if at+6 > end || nb.src[at] != '\\' || nb.src[at+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(nb.src[at+2:at+6]), 16, 16)
		return rune(n), err == nil
	}
	r, ok := hex(i)
	if !ok {
		return utf8.RuneError, 2
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex(i + 6); ok {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// IPython cell magics whose body is Python run in the notebook's
// namespace; any other cell magic (%%bash, %%html, %%writefile x.py,
// %%python in a subprocess) holds text that is not notebook code.
var pythonCellMagics = map[string]bool{"capture": true, "time": true, "timeit": true, "prun": true, "debug": true}

// A line IPython turns into a call: `x = !cmd`, `x = %magic`.
var assignMagic = regexp.MustCompile(`^(\s*[\w.]+(?:\s*,\s*[\w.]+)*\s*=\s*)[!%]`)

// Help lines: `obj?`, `obj??`, `?obj`.
var helpLine = regexp.MustCompile(`^\s*(\?{1,2}[\w.*]+|[\w.*]+\?{1,2})\s*$`)

// line is one line of a cell as the module gets it: the cell bytes
// [start, copyTo), then made (text in place of what is not Python, made at
// copyTo), then a newline (the cell's at nl, or one after the cell when
// nl < 0).
type line struct {
	start, copyTo int
	made          string
	nl            int
}

// lines turns a cell into the lines of Python it contributes.
func (c *cellText) lines() []line {
	var ls [][2]int
	for s := 0; s < len(c.text); {
		e := s
		for e < len(c.text) && c.text[e] != '\n' {
			e++
		}
		ls = append(ls, [2]int{s, e})
		s = e + 1
	}
	text := func(l [2]int) string { return string(c.text[l[0]:l[1]]) }
	first := 0
	for first < len(ls) && strings.TrimSpace(text(ls[first])) == "" {
		first++
	}
	if first < len(ls) && strings.HasPrefix(strings.TrimSpace(text(ls[first])), "%%") {
		name := strings.TrimPrefix(strings.Fields(text(ls[first]))[0], "%%")
		if !pythonCellMagics[name] {
			return nil
		}
		first++ // the magic line itself is dropped
	}
	// IPython removes the first line's indentation from every line that
	// has it (its leading_indent transform).
	for first < len(ls) && strings.TrimSpace(text(ls[first])) == "" {
		first++
	}
	indent := ""
	if first < len(ls) {
		t := text(ls[first])
		indent = t[:len(t)-len(strings.TrimLeft(t, " \t"))]
	}
	var out []line
	sc := pyScanner{}
	cont := false // the previous escape line goes on with a backslash
	for i := first; i < len(ls); i++ {
		l := ls[i]
		if indent != "" && strings.HasPrefix(text(l), indent) {
			l[0] += len(indent)
		}
		nl := -1
		if l[1] < len(c.text) {
			nl = l[1]
		}
		t := text(l)
		trim := strings.TrimLeft(t, " \t")
		goesOn := strings.HasSuffix(strings.TrimRight(t, " \t\r"), "\\")
		switch {
		case cont:
			out = append(out, line{start: l[0], copyTo: l[0], nl: nl})
			cont = goesOn
			continue
		case sc.atStatement() && (strings.HasPrefix(trim, "%") || strings.HasPrefix(trim, "!") || helpLine.MatchString(t)):
			// A line magic, a shell escape or help: not Python. `pass`
			// keeps a block it is the only statement of.
			out = append(out, line{start: l[0], copyTo: l[0], made: t[:len(t)-len(trim)] + "pass", nl: nl})
			cont = goesOn
			continue
		case sc.atStatement() && assignMagic.MatchString(t):
			m := assignMagic.FindStringSubmatchIndex(t)
			out = append(out, line{start: l[0], copyTo: l[0] + m[3], made: "None", nl: nl})
			cont = goesOn
			continue
		}
		sc.scan(t)
		out = append(out, line{start: l[0], copyTo: l[1], nl: nl})
	}
	return out
}

// pyScanner follows just enough of Python's tokens across lines to say
// whether a line starts a statement (not inside a triple-quoted string, a
// bracket or a backslash continuation), which is where IPython looks for
// escapes.
type pyScanner struct {
	triple byte // the quote of an open triple-quoted string, or 0
	depth  int
	cont   bool
}

func (s *pyScanner) atStatement() bool { return s.triple == 0 && s.depth == 0 && !s.cont }

func (s *pyScanner) scan(t string) {
	s.cont = false
	for i := 0; i < len(t); i++ {
		ch := t[i]
		if s.triple != 0 {
			if ch == '\\' {
				i++
			} else if ch == s.triple && strings.HasPrefix(t[i:], strings.Repeat(string(ch), 3)) {
				s.triple = 0
				i += 2
			}
			continue
		}
		switch ch {
		case '#':
			return
		case '(', '[', '{':
			s.depth++
		case ')', ']', '}':
			if s.depth > 0 {
				s.depth--
			}
		case '\\':
			if i == len(strings.TrimRight(t, " \t\r"))-1 {
				s.cont = true
				return
			}
			i++
		case '\'', '"':
			if strings.HasPrefix(t[i:], strings.Repeat(string(ch), 3)) {
				s.triple = ch
				i += 2
				continue
			}
			for i++; i < len(t) && t[i] != ch; i++ {
				if t[i] == '\\' {
					i++
				}
			}
		}
	}
}

// module joins the code cells (but those in skip) into one module. Each
// line starts on the line of the JSON that holds it when it can (a source
// given as one string puts several lines on one JSON line), so lines in
// names made from them (`<lambda@12>`) are the file's too.
func (nb *notebook) module(skip map[int]bool) *extract.Embedded {
	e := &extract.Embedded{}
	codeLine, after := 1, 0
	nb.ranges = nb.ranges[:0]
	for ci, c := range nb.cells {
		start := len(e.Code)
		if !skip[ci] {
			for _, l := range c.lines() {
				for want := nb.lineOf(nb.fileOff(c, l.start)); codeLine < want; codeLine++ {
					e.Make(after, "\n")
				}
				nb.emit(e, c, l.start, l.copyTo)
				e.Make(nb.fileOff(c, l.copyTo), l.made)
				after = c.end
				if l.nl >= 0 {
					after = c.off[l.nl]
				}
				e.Make(after, "\n")
				codeLine++
			}
		}
		nb.ranges = append(nb.ranges, [2]int{start, len(e.Code)})
	}
	return e
}

// fileOff is the file offset of the cell byte i (the end of the cell past
// its last byte).
func (nb *notebook) fileOff(c cellText, i int) int {
	if i < len(c.off) {
		return c.off[i]
	}
	return c.end
}

func (nb *notebook) lineOf(off int) int {
	return sort.Search(len(nb.lines), func(i int) bool { return nb.lines[i] > off })
}

// emit appends the cell bytes [from, to) with their file offsets.
func (nb *notebook) emit(e *extract.Embedded, c cellText, from, to int) {
	for i := from; i < to; {
		j := i + 1
		if c.made[i] {
			for j < to && c.made[j] && c.off[j] == c.off[i] {
				j++
			}
			e.Make(c.off[i], string(c.text[i:j]))
		} else {
			for j < to && !c.made[j] && c.off[j] == c.off[j-1]+1 {
				j++
			}
			e.Copy(c.off[i], c.text[i:j])
		}
		i = j
	}
}

type badCell struct {
	cell    int
	problem extract.Problem
}

// badCells parses the module; when it has a syntax error, it parses each
// cell alone (Jupyter compiles each cell by itself) and returns those that
// do not parse, and whether every error of the module is inside them.
func (nb *notebook) badCells(e *extract.Embedded) ([]badCell, bool) {
	tree, err := Parse(context.Background(), e.Code, nil)
	if err != nil {
		return nil, true
	}
	defer tree.Close()
	if !tree.RootNode().HasError() {
		return nil, true
	}
	var out []badCell
	var spans [][2]int
	for ci, r := range nb.ranges {
		code := e.Code[r[0]:r[1]]
		t, err := Parse(context.Background(), code, nil)
		if err != nil {
			continue
		}
		if n := firstError(t.RootNode()); n != nil {
			off := e.FileOffset(r[0] + int(n.StartByte()))
			p := extract.PointAt(nb.src, nb.lines, off)
			out = append(out, badCell{ci, extract.Problem{Loc: extract.Loc{File: nb.rel, Start: p, End: p}, Unread: true}})
			spans = append(spans, r)
		}
		t.Close()
	}
	contained := true
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if !contained || !n.HasError() && !n.IsMissing() {
			return
		}
		if n.IsError() || n.IsMissing() {
			in := false
			for _, s := range spans {
				in = in || (int(n.StartByte()) >= s[0] && int(n.EndByte()) <= s[1])
			}
			contained = contained && in
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(tree.RootNode())
	return out, contained && len(out) > 0
}

func firstError(n *sitter.Node) *sitter.Node {
	if n.IsError() || n.IsMissing() {
		return n
	}
	if !n.HasError() {
		return nil
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if e := firstError(n.Child(i)); e != nil {
			return e
		}
	}
	return n
}
