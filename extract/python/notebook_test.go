package python

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract"
)

// notebookFacts reads a notebook as the workspace does: its module, parsed,
// extracted and moved into the file's positions.
func notebookFacts(t *testing.T, rel string, src []byte) (*extract.File, *extract.Embedded) {
	t.Helper()
	e, err := Notebook(rel, src)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := Parse(context.Background(), e.Code, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	f := ExtractNotebook(rel, e.Code, tree)
	if err := e.Relocate(f, src); err != nil {
		t.Fatal(err)
	}
	return f, e
}

// TestNotebookPositions: every tool's name and every agent's call point at
// their text in the JSON, for list sources, a one-string source, escapes
// and non-ASCII text before them; line and column agree with the byte.
func TestNotebookPositions(t *testing.T) {
	const rel = "research.ipynb"
	src, err := os.ReadFile("../../testdata/notebooks/pos-magics-and-broken-cell/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	f, e := notebookFacts(t, rel, src)
	lines := extract.LineStarts(src)
	at := func(p extract.Point) string { return string(src[p.Byte:min(len(src), int(p.Byte)+24)]) }
	names := map[string]bool{}
	for _, tl := range f.Tools {
		names[tl.Name] = true
		p := tl.Func.NameLoc.Start
		if !strings.HasPrefix(at(p), tl.Name) {
			t.Errorf("tool %s: name at %d:%d is %q", tl.Name, p.Line, p.Col, at(p))
		}
		if q := extract.PointAt(src, lines, int(p.Byte)); q != p {
			t.Errorf("tool %s: point %+v, its byte says %+v", tl.Name, p, q)
		}
	}
	for _, want := range []string{"fetch_page", "read_notes", "post"} {
		if !names[want] {
			t.Errorf("tool %s not found (tools %v)", want, names)
		}
	}
	if len(f.Agents) != 1 || !strings.HasPrefix(at(f.Agents[0].Loc.Start), "create_react_agent(") {
		t.Fatalf("agents %+v", f.Agents)
	}
	// Each code line is on the JSON line that holds it (list sources).
	if got := f.Agents[0].Loc.Start.Line; !bytes.Contains(src[lines[got-1]:lines[got]], []byte("researcher = create_react_agent")) {
		t.Errorf("agent on line %d", got)
	}
	prev := -1
	for i := 0; i <= len(e.Code); i++ {
		o := e.FileOffset(i)
		if o < prev || o > len(src) {
			t.Fatalf("FileOffset(%d) = %d after %d: not monotone within the file", i, o, prev)
		}
		prev = o
	}
	if len(e.Problems) != 2 || !e.Problems[0].Unread || e.Problems[0].Loc.Start.Line != 51 {
		t.Errorf("problems %+v: want the two broken cells, unread, the first at line 51", e.Problems)
	}
}

// cellsNotebook is an nbformat 4 notebook of code cells, each source a
// list of lines as Jupyter writes it.
func cellsNotebook(cells ...string) []byte {
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	for i, c := range cells {
		b.WriteString("  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n")
		ls := strings.SplitAfter(c, "\n")
		if ls[len(ls)-1] == "" {
			ls = ls[:len(ls)-1]
		}
		for j, l := range ls {
			b.WriteString("    " + jsonString(l))
			if j < len(ls)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("   ]\n  }")
		if i < len(cells)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(" ],\n \"metadata\": {\"kernelspec\": {\"language\": \"python\"}},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	return []byte(b.String())
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

// codeLines are the module's lines without the blank ones.
func codeLines(code []byte) []string {
	var out []string
	for _, l := range strings.Split(string(code), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestNotebookMagics: what IPython runs that is not Python is put out of
// the way, and only that.
func TestNotebookMagics(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cells []string
		want  []string
	}{
		{"line magics and escapes", []string{"%pip install x\n!ls -la \\\n   more\nimport os\n"}, []string{"pass", "pass", "import os"}},
		{"assigned escapes", []string{"files = !ls\nenv = %env\n"}, []string{"files = None", "env = None"}},
		{"escape in a block", []string{"if x:\n    !echo hi\n"}, []string{"if x:", "    pass"}},
		{"help", []string{"os?\n??os.path\nx = 1\n"}, []string{"pass", "pass", "x = 1"}},
		{"python cell magics", []string{"%%capture --no-stderr\nimport os\n", "%%time\ny = 2\n"}, []string{"import os", "y = 2"}},
		{"other cell magics", []string{"%%bash\necho (\n", "%%writefile helper.py\ndef f(:\n", "\n%%html\n<b>\n"}, nil},
		{"not at a statement start", []string{"p = \"\"\"\n!important\n%d items\n\"\"\"\nq = (10\n% 3)\n"}, []string{`p = """`, "!important", "%d items", `"""`, "q = (10", "% 3)"}},
		{"leading indent", []string{"    a = 1\n    b = 2\n"}, []string{"a = 1", "b = 2"}},
		{"escapes in strings", []string{"s = \"tab\\there\" # «é»\n"}, []string{"s = \"tab\\there\" # «é»"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Notebook("n.ipynb", cellsNotebook(tc.cells...))
			if err != nil {
				t.Fatal(err)
			}
			if got := codeLines(e.Code); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("module lines %q, want %q", got, tc.want)
			}
			if len(e.Problems) != 0 {
				t.Errorf("problems %+v", e.Problems)
			}
		})
	}
}

// TestNotebookOneBrokenCell: a cell whose error stays inside it is read as
// recovered, with an unread notice; the cells around it are read.
func TestNotebookOneBrokenCell(t *testing.T) {
	src := cellsNotebook("import os\n", "def broken(:\n    return 1\n", "from langchain_core.tools import tool\n\n@tool\ndef ok() -> str:\n    \"\"\"Fine.\"\"\"\n    return \"x\"\n")
	f, e := notebookFacts(t, "n.ipynb", src)
	if len(e.Problems) != 1 || !e.Problems[0].Unread || !strings.Contains(e.Problems[0].Message, "code cell 2") || !strings.Contains(e.Problems[0].Message, "recovered") {
		t.Errorf("problems %+v", e.Problems)
	}
	if len(f.Tools) != 1 || f.Tools[0].Name != "ok" {
		t.Errorf("tools %+v", f.Tools)
	}
}

// TestNotNotebooks: what is not an nbformat 4 Python notebook is an error
// (a notice in the workspace) or, for another kernel's language, no code.
func TestNotNotebooks(t *testing.T) {
	for name, src := range map[string]string{
		"invalid JSON":  "{\n \"cells\": [\n  {\"cell_type\": \"code\", \"source\": [\"x = 1\n",
		"not an object": "[]",
		"nbformat 3":    `{"worksheets": [{"cells": []}], "nbformat": 3}`,
		"no cells":      `{"metadata": {}}`,
	} {
		if _, err := Notebook("n.ipynb", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), "not read: ") {
			t.Errorf("%s: err %v", name, err)
		}
	}
	e, err := Notebook("r.ipynb", []byte(`{"cells": [{"cell_type": "code", "source": ["library(x)\n"]}], "metadata": {"kernelspec": {"language": "R"}}}`))
	if err != nil || len(e.Code) != 0 {
		t.Errorf("an R notebook: code %q, err %v", e.Code, err)
	}
}
