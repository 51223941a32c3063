package incremental_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp/lsptest"
	"github.com/acg-dev/acg/report"
)

// coldScan is what `acg scan` reports for the given file texts: they are
// written to a fresh directory and scanned from scratch.
func coldScan(t *testing.T, texts map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for rel, b := range texts {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap, _, err := incremental.Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := snap.Analyze()
	return docJSON(t, res)
}

func docJSON(t *testing.T, res *incremental.Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.JSON(&b, report.NewDocument(res.Graph, res.Findings)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// snapshotTexts are the texts a snapshot's analysis stands for.
func snapshotTexts(s *incremental.Snapshot) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range s.Files() {
		if f.Facts() != nil {
			out[f.Path] = f.Src
		}
	}
	return out
}

// mutation is one random edit of a document's text, as editor edits.
type mutation func(r *rand.Rand, text []byte) []incremental.Edit

// lineEdit inserts or replaces at line boundaries, keeping indentation
// mostly valid so that most steps parse.
func lines(text []byte) []int {
	starts := []int{0}
	for i, c := range text {
		if c == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineAt(text []byte, starts []int, i int) (int, int) {
	s := starts[i]
	e := bytes.IndexByte(text[s:], '\n')
	if e < 0 {
		return s, len(text)
	}
	return s, s + e + 1
}

func indentOf(line []byte) string {
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

var snippets = []string{
	"x_{n} = 1\n",
	"# a comment {n}\n",
	"decision = interrupt({\"action\": \"step_{n}\"})\n",
	"if decision.get(\"type\") != \"accept\":\n{i}    return \"rejected\"\n",
	"requests.post(\"https://example.com/{n}\", data=str({n}))\n",
	"value_{n} = os.environ[\"HOME\"]\n",
	"from langgraph.types import interrupt\n",
	"import subprocess\n",
	"value = os.environ[\"HOME\"]  # 📝 備考\n",
	"subprocess.run([\"ls\"])\n",
}

var mutations = []mutation{
	// Insert a snippet before a random line, with that line's indentation.
	func(r *rand.Rand, text []byte) []incremental.Edit {
		starts := lines(text)
		i := r.Intn(len(starts))
		s, e := lineAt(text, starts, i)
		ind := indentOf(text[s:e])
		sn := snippets[r.Intn(len(snippets))]
		sn = strings.ReplaceAll(sn, "{n}", fmt.Sprint(r.Intn(100)))
		sn = strings.ReplaceAll(sn, "{i}", ind)
		return []incremental.Edit{{Start: s, End: s, Text: []byte(ind + sn)}}
	},
	// Delete one to three lines.
	func(r *rand.Rand, text []byte) []incremental.Edit {
		starts := lines(text)
		i := r.Intn(len(starts))
		s, _ := lineAt(text, starts, i)
		_, e := lineAt(text, starts, min(i+r.Intn(3), len(starts)-1))
		return []incremental.Edit{{Start: s, End: e}}
	},
	// Type a word character by character somewhere, one edit per key.
	func(r *rand.Rand, text []byte) []incremental.Edit {
		off := r.Intn(len(text) + 1)
		word := []string{"read_notes", "send_http", ", ", "tool", ")", "\n", "x"}[r.Intn(7)]
		var out []incremental.Edit
		for i := 0; i < len(word); i++ {
			out = append(out, incremental.Edit{Start: off + i, End: off + i, Text: []byte{word[i]}})
		}
		return out
	},
	// Replace one identifier occurrence with another.
	func(r *rand.Rand, text []byte) []incremental.Edit {
		names := []string{"read_email", "read_notes", "send_http", "requests.post", "requests.get", "tool"}
		from := names[r.Intn(len(names))]
		i := bytes.Index(text, []byte(from))
		if i < 0 {
			return nil
		}
		to := names[r.Intn(len(names))]
		return []incremental.Edit{{Start: i, End: i + len(from), Text: []byte(to)}}
	},
}

// TestEditsEqualColdScan applies random editor edits (and disk changes)
// and checks after every step that the incremental analysis reports what a
// cold scan of the same texts reports. ACG_PROPERTY_SEEDS and
// ACG_PROPERTY_STEPS make it a long run (docs/testing.md).
func TestEditsEqualColdScan(t *testing.T) {
	// Every fixture of the project (each holds a CASE.md) and the LSP ones:
	// a join between files that the Analyzer's groups miss shows up here.
	fixtures := []string{"../testdata/lsp/unicode", "../testdata/lsp/two-sinks"}
	_ = filepath.WalkDir("../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "CASE.md" {
			fixtures = append(fixtures, filepath.Dir(p))
		}
		return nil
	})
	def := lsptest.PropertyRun{First: 1, Last: 3, Steps: 10}
	if testing.Short() {
		def = lsptest.PropertyRun{First: 1, Last: 1, Steps: 4}
	}
	run := lsptest.Property(t, def) // ACG_PROPERTY_SEEDS, ACG_PROPERTY_STEPS
	steps := run.Steps
	for _, fx := range fixtures {
		for seed := run.First; seed <= run.Last; seed++ {
			name := strings.TrimPrefix(filepath.ToSlash(fx), "../testdata/")
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				runEdits(t, lsptest.Fixture(t, fx), seed, steps)
			})
		}
	}
}

func runEdits(t *testing.T, root string, seed int64, steps int) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(seed))
	ws := incremental.NewWorkspace(root, func(m string) { t.Log(m) })
	if _, err := ws.Load(ctx, nil); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		s := ws.Snapshot()
		res, err := ws.Analyze(ctx, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, want := docJSON(t, res), coldScan(t, snapshotTexts(s))
		if got != want {
			t.Fatalf("%s: incremental analysis differs from a cold scan\n--- incremental\n%s\n--- cold\n%s", step, got, want)
		}
	}
	check("load")
	var paths []string
	for _, f := range ws.Snapshot().Files() {
		if f.Facts() != nil {
			paths = append(paths, f.Path)
		}
	}
	sort.Strings(paths)
	version := int32(1)
	for i := 0; i < steps; i++ {
		rel := paths[r.Intn(len(paths))]
		doc, open := ws.Document(rel)
		switch {
		case !open && r.Intn(4) == 0:
			// Changed on disk while closed.
			p := filepath.Join(root, filepath.FromSlash(rel))
			text, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			text = applyAll(text, mutations[r.Intn(len(mutations))](r, text))
			if err := os.WriteFile(p, text, 0o644); err != nil {
				t.Fatal(err)
			}
			ws.Refresh([]string{rel})
		case !open:
			text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			version++
			if _, err := ws.Open(ctx, rel, version, text); err != nil {
				t.Fatal(err)
			}
		case r.Intn(6) == 0:
			if _, err := ws.Close(ctx, rel); err != nil {
				t.Fatal(err)
			}
		default:
			edits := mutations[r.Intn(len(mutations))](r, doc.Text)
			version++
			s, fresh, err := ws.Change(ctx, rel, version, edits)
			if err != nil {
				t.Fatal(err)
			}
			want := applyAll(doc.Text, edits)
			if now, _ := ws.Document(rel); !bytes.Equal(now.Text, want) {
				t.Fatalf("step %d: document text is not the edited text", i)
			}
			if fresh != bytes.Equal(s.File(rel).Src, want) {
				t.Fatalf("step %d: Change says fresh=%v, snapshot disagrees", i, fresh)
			}
			// A fresh parse with the file's own front end (a TypeScript
			// file with Python text in it is an error there).
			if f, err := incremental.NewFile(ctx, rel, want, nil); err == nil && !fresh && !f.SyntaxError() {
				t.Fatalf("step %d: the incremental parse of %s found a syntax error that a fresh parse does not:\n%s", i, rel, want)
			}
		}
		check(fmt.Sprintf("step %d (%s)", i, rel))
	}
}

// applyAll applies edits in order, each against the text the previous one left.
func applyAll(text []byte, edits []incremental.Edit) []byte {
	for _, e := range edits {
		next := append([]byte{}, text[:e.Start]...)
		next = append(next, e.Text...)
		text = append(next, text[e.End:]...)
	}
	return text
}

// TestGroupsFollowImports edits imports so that groups of files merge and
// split, and adds and removes a module that an import names before it
// exists: every step must still equal a cold scan.
func TestGroupsFollowImports(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	tool := func(name, body string) string {
		return fmt.Sprintf("\n\n@tool\ndef %s(url: str, text: str = \"\") -> str:\n    \"\"\"A tool.\"\"\"\n%s", name, body)
	}
	files := map[string]string{
		"app/__init__.py": "",
		"app/tools_a.py": "import requests\nfrom langchain_core.tools import tool\n" +
			tool("fetch_a", "    return requests.get(url).text\n"),
		"app/tools_b.py": "import os\nfrom langchain_core.tools import tool\n" +
			tool("secret_b", "    return os.environ[\"TOKEN\"]\n"),
		"app/tools_c.py": "import requests\nfrom langchain_core.tools import tool\n" +
			tool("post_c", "    return str(requests.post(url, data=text).status_code)\n"),
		"app/agent_1.py": "from langgraph.prebuilt import create_react_agent\nfrom .tools_a import fetch_a\n\n" +
			"agent_1 = create_react_agent(\"m\", tools=[fetch_a])\n",
		"app/agent_2.py": "from langgraph.prebuilt import create_react_agent\nfrom .tools_b import secret_b\nfrom .tools_d import later_d\n\n" +
			"agent_2 = create_react_agent(\"m\", tools=[secret_b, later_d])\n",
	}
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := incremental.NewWorkspace(root, func(m string) { t.Log(m) })
	if _, err := ws.Load(ctx, nil); err != nil {
		t.Fatal(err)
	}
	findings := func(step string) int {
		t.Helper()
		s := ws.Snapshot()
		res, err := ws.Analyze(ctx, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := docJSON(t, res), coldScan(t, snapshotTexts(s)); got != want {
			t.Fatalf("%s: incremental analysis differs from a cold scan\n--- incremental\n%s\n--- cold\n%s", step, got, want)
		}
		return len(res.Findings)
	}
	before := findings("load")
	doc := []byte(files["app/agent_1.py"])
	if _, err := ws.Open(ctx, "app/agent_1.py", 1, doc); err != nil {
		t.Fatal(err)
	}
	// Link agent_1 to tools_b and tools_c: the groups merge.
	link := "from .tools_b import secret_b\nfrom .tools_c import post_c\n"
	at := bytes.Index(doc, []byte("\n\nagent_1")) + 1
	list := bytes.Index(doc, []byte("fetch_a]"))
	edits := []incremental.Edit{{Start: list + len("fetch_a"), End: list + len("fetch_a"), Text: []byte(", secret_b, post_c")},
		{Start: at, End: at, Text: []byte(link)}}
	if _, _, err := ws.Change(ctx, "app/agent_1.py", 2, edits); err != nil {
		t.Fatal(err)
	}
	if linked := findings("linked"); linked <= before {
		t.Fatalf("linking every leg into agent_1 gave %d findings, before %d", linked, before)
	}
	// Unlink again: the group splits.
	now, _ := ws.Document("app/agent_1.py")
	i := bytes.Index(now.Text, []byte(link))
	j := bytes.Index(now.Text, []byte(", secret_b, post_c"))
	edits = []incremental.Edit{{Start: i, End: i + len(link)}, {Start: j - len(link), End: j - len(link) + len(", secret_b, post_c")}}
	if _, _, err := ws.Change(ctx, "app/agent_1.py", 3, edits); err != nil {
		t.Fatal(err)
	}
	if n := findings("unlinked"); n != before {
		t.Fatalf("after unlinking: %d findings, want %d", n, before)
	}
	// The module agent_2 imports appears on disk, then goes again.
	dPath := filepath.Join(root, "app", "tools_d.py")
	if err := os.WriteFile(dPath, []byte("import subprocess\nfrom langchain_core.tools import tool\n"+
		tool("later_d", "    return subprocess.run(url, shell=True).stdout\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.Refresh([]string{"app/tools_d.py"})
	findings("module added")
	if err := os.Remove(dPath); err != nil {
		t.Fatal(err)
	}
	ws.Refresh([]string{"app"}) // a directory path stands for the files under it
	if ws.Snapshot().File("app/tools_d.py") != nil {
		t.Fatal("removed file still in the snapshot")
	}
	findings("module removed")
}
