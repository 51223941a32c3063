package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/extract/python"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// TestEditsEqualColdScanThroughLSP edits documents through the server at
// random (range edits typed in pieces, whole-document replacements, opens,
// closes, files written on disk) and checks after every step that the
// diagnostics the server reports are the findings of a cold `acg scan` of
// the same texts. A document with a syntax error counts with its last text
// that parsed, as the server keeps its last good facts. ACG_PROPERTY_SEEDS
// and ACG_PROPERTY_STEPS make it a long run (docs/testing.md).
func TestEditsEqualColdScanThroughLSP(t *testing.T) {
	def := lsptest.PropertyRun{First: 1, Last: 3, Steps: 10}
	if testing.Short() {
		def.Steps = 3
	}
	run := lsptest.Property(t, def) // ACG_PROPERTY_SEEDS, ACG_PROPERTY_STEPS
	for _, fx := range []string{"../testdata/inbox", "../testdata/lsp/two-sinks", "../testdata/lsp/unicode"} {
		for seed := run.First; seed <= run.Last; seed++ {
			t.Run(fmt.Sprintf("%s/%d", filepath.Base(fx), seed), func(t *testing.T) {
				propertyRun(t, fx, seed, run.Steps)
			})
		}
	}
}

type docState struct {
	text, good string
	hasGood    bool
}

func parses(text string) bool {
	tree, err := python.Parse(context.Background(), []byte(text), nil)
	return err == nil && !tree.RootNode().HasError()
}

func propertyRun(t *testing.T, fixture string, seed int64, steps int) {
	r := rand.New(rand.NewSource(seed))
	c, _ := start(t, fixture, lsptest.Options{Caps: lsptest.PullCaps(), Server: lsp.Options{NoWatch: true}, InitOptions: map[string]any{"debounceMs": 0}})
	var paths []string
	entries, _ := os.ReadDir(c.Root)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".py") {
			paths = append(paths, e.Name())
		}
	}
	sort.Strings(paths)
	open := map[string]*docState{}
	for i := 0; i <= steps; i++ {
		if i > 0 {
			step(t, c, r, paths, open)
		}
		// What the server should have analysed.
		texts := map[string][]byte{}
		for _, p := range paths {
			if d := open[p]; d != nil {
				if d.hasGood {
					texts[p] = []byte(d.good)
				} else {
					texts[p] = []byte(d.text)
				}
				continue
			}
			b, _ := os.ReadFile(filepath.Join(c.Root, p))
			texts[p] = b
		}
		if got, want := served(t, c, paths), cold(t, texts); got != want {
			t.Fatalf("step %d: the server reports\n%s\na cold scan reports\n%s", i, got, want)
		}
	}
}

func step(t *testing.T, c *lsptest.Client, r *rand.Rand, paths []string, open map[string]*docState) {
	p := paths[r.Intn(len(paths))]
	d := open[p]
	switch {
	case d == nil && r.Intn(3) == 0:
		// Written on disk while closed.
		full := filepath.Join(c.Root, p)
		b, _ := os.ReadFile(full)
		if err := os.WriteFile(full, []byte(mutate(r, string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := c.Server.DidChangeWatchedFiles(c.Ctx(), &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
			{URI: c.URI(p), Type: protocol.FileChangeTypeChanged}}}); err != nil {
			t.Fatal(err)
		}
	case d == nil:
		c.Open(p)
		text := c.Text(p)
		open[p] = &docState{text: text, good: text, hasGood: parses(text)}
	case r.Intn(8) == 0:
		c.Close(p)
		delete(open, p)
	default:
		old := d.text
		next := mutate(r, old)
		// Send it as the range edit an editor would: the changed span,
		// sometimes typed in two pieces.
		pre := 0
		for pre < len(old) && pre < len(next) && old[pre] == next[pre] {
			pre++
		}
		suf := 0
		for suf < len(old)-pre && suf < len(next)-pre && old[len(old)-1-suf] == next[len(next)-1-suf] {
			suf++
		}
		for !utf8Start(old, pre) {
			pre--
		}
		for !utf8Start(old, len(old)-suf) || !utf8Start(next, len(next)-suf) {
			suf--
		}
		rng := protocol.Range{Start: lsptest.PositionOf(old, pre), End: lsptest.PositionOf(old, len(old)-suf)}
		ins := next[pre : len(next)-suf]
		if cut := len(ins) / 2; r.Intn(2) == 0 && cut > 0 && utf8Start(ins, cut) {
			mid := old[:pre] + ins[:cut] + old[len(old)-suf:]
			at := lsptest.PositionOf(mid, pre+cut)
			c.Change(p, lsptest.Edit(rng, ins[:cut]), lsptest.Edit(protocol.Range{Start: at, End: at}, ins[cut:]))
		} else {
			c.Change(p, lsptest.Edit(rng, ins))
		}
		if c.Text(p) != next {
			t.Fatal("the test client's text drifted")
		}
		d.text = next
		if parses(next) {
			d.good, d.hasGood = next, true
		}
	}
}

func utf8Start(s string, i int) bool { return i <= 0 || i >= len(s) || s[i]&0xC0 != 0x80 }

// mutate edits Python text in ways that change findings or break the
// syntax: snippets inserted at a line's indentation, lines deleted, words
// replaced.
func mutate(r *rand.Rand, text string) string {
	lines := strings.SplitAfter(text, "\n")
	i := r.Intn(len(lines))
	indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
	switch r.Intn(4) {
	case 0:
		sn := []string{
			"decision = interrupt({\"action\": \"x\"})\n",
			"requests.post(\"https://example.com\", data=str(1))\n",
			"from langgraph.types import interrupt\n",
			"value = os.environ[\"HOME\"]  # 📝 備考\n",
			"if True:\n" + indent + "    return \"no\"\n",
			"def (\n",
		}[r.Intn(6)]
		lines = append(lines[:i], append([]string{indent + sn}, lines[i:]...)...)
	case 1:
		j := min(i+1+r.Intn(2), len(lines))
		lines = append(lines[:i], lines[j:]...)
	default:
		words := []string{"read_email", "read_notes", "send_http", "delete_notes", "post_note", "read_mail", "requests.post", "requests.get", "@tool"}
		from, to := words[r.Intn(len(words))], words[r.Intn(len(words))]
		return strings.Replace(text, from, to, 1)
	}
	return strings.Join(lines, "")
}

// served pulls every file's diagnostics: (file, rule, id, position) lines.
func served(t *testing.T, c *lsptest.Client, paths []string) string {
	t.Helper()
	var out []string
	for _, p := range paths {
		rep, err := c.Server.Diagnostic(c.Ctx(), &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(p)}})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range rep.(*protocol.RelatedFullDocumentDiagnosticReport).Items {
			var data struct{ ID string }
			_ = json.Unmarshal(d.Data, &data)
			out = append(out, fmt.Sprintf("%s:%d:%d %s %s", p, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, data.ID))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// cold is what `acg scan` finds in the same texts.
func cold(t *testing.T, texts map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for p, b := range texts {
		if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap, _, err := incremental.Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range snap.Analyze().Findings {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", f.Location.File, f.Location.Line, f.Location.Column, f.Rule, f.ID))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
