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
	"time"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
	"github.com/acg-dev/acg/policy"
)

// TestCommentEditsEqualColdScanThroughLSP is the push-mode companion of
// TestEditsEqualColdScanThroughLSP, weighted towards the edits the server
// answers by republishing its last analysis with the offsets moved, without
// analysing: typing into comments and deleting from them, typing into
// docstrings, spaces at the end of a line; mixed with comments added and
// real edits. After every step the last
// diagnostics published for every file must be those of a cold scan of the
// same texts: position, code, id and every related location. Nothing but
// publications is asked for, so a wrong shortcut is never repaired by a
// request's own analysis. ACG_PROPERTY_SEEDS and ACG_PROPERTY_STEPS make it
// a long run (docs/testing.md).
func TestCommentEditsEqualColdScanThroughLSP(t *testing.T) {
	def := lsptest.PropertyRun{First: 1, Last: 3, Steps: 16}
	if testing.Short() {
		def.Steps = 4
	}
	run := lsptest.Property(t, def)
	for _, fx := range []string{"../testdata/inbox", "../testdata/lsp/two-sinks", "../testdata/lsp/unicode"} {
		for seed := run.First; seed <= run.Last; seed++ {
			t.Run(fmt.Sprintf("%s/%d", filepath.Base(fx), seed), func(t *testing.T) {
				commentRun(t, fx, seed, run.Steps)
			})
		}
	}
}

func commentRun(t *testing.T, fixture string, seed int64, steps int) {
	r := rand.New(rand.NewSource(seed))
	c, _ := start(t, fixture, lsptest.Options{Caps: lsptest.RichCaps(), Server: lsp.Options{NoWatch: true},
		InitOptions: map[string]any{"debounceMs": 0}, Timeout: 20 * time.Second})
	var paths []string
	entries, _ := os.ReadDir(c.Root)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".py") {
			paths = append(paths, e.Name())
		}
	}
	sort.Strings(paths)
	docs := map[string]*docState{}
	for _, p := range paths {
		c.Open(p)
		text := c.Text(p)
		docs[p] = &docState{text: text, good: text, hasGood: parses(text)}
	}
	for i := 0; i <= steps; i++ {
		what := "the first analysis"
		if i > 0 {
			p := paths[r.Intn(len(paths))]
			what = commentStep(t, c, r, p, docs[p])
		}
		texts := map[string][]byte{}
		for _, p := range paths {
			texts[p] = []byte(docs[p].good)
		}
		want := coldDiags(t, texts)
		var got string
		func() {
			defer func() {
				if t.Failed() {
					t.Logf("step %d (%s): the server published\n%s\na cold scan reports\n%s", i, what, got, want)
				}
			}()
			c.Wait(fmt.Sprintf("step %d (%s): the published diagnostics to equal a cold scan's", i, what), func() bool {
				got = publishedDiags(c, paths)
				return got == want
			})
		}()
	}
}

// commentStep makes one edit of document p and says what it was.
func commentStep(t *testing.T, c *lsptest.Client, r *rand.Rand, p string, d *docState) string {
	old := d.text
	var next, what string
	comments := commentSpans(old)
	switch k := r.Intn(10); {
	case k < 6 && len(comments) > 0:
		sp := comments[r.Intn(len(comments))]
		at := sp[0] + 1 + r.Intn(sp[1]-sp[0]) // after the '#', up to the end
		if r.Intn(3) == 0 && at < sp[1] {
			next, what = old[:at]+old[at+1:], "a character deleted from a comment"
			if !utf8Start(old, at) || !utf8Start(old, at+1) {
				return commentStep(t, c, r, p, d)
			}
		} else {
			word := []string{"x", " note", "7", "備考", " acg: ignore[egress] checked"}[r.Intn(5)]
			next, what = old[:at]+word+old[at:], "typed into a comment: "+word
			if !utf8Start(old, at) {
				return commentStep(t, c, r, p, d)
			}
		}
	case k < 7 && strings.Contains(old, `"""`):
		// Into a docstring, or spaces at the end of a line: extracted
		// again, the same facts.
		if r.Intn(2) == 0 {
			var starts []int
			for off := 0; ; {
				i := strings.Index(old[off:], `"""`)
				if i < 0 {
					break
				}
				starts = append(starts, off+i+3)
				off += i + 3
			}
			at := starts[r.Intn(len(starts))]
			next, what = old[:at]+"Docs "+old[at:], "typed into a triple-quoted string"
		} else {
			var ends []int
			for i := 0; i < len(old); i++ {
				if old[i] == '\n' {
					ends = append(ends, i)
				}
			}
			if len(ends) == 0 {
				return commentStep(t, c, r, p, d)
			}
			at := ends[r.Intn(len(ends))]
			next, what = old[:at]+"  "+old[at:], "spaces at the end of a line"
		}
	case k < 8:
		lines := strings.SplitAfter(old, "\n")
		i := r.Intn(len(lines))
		if r.Intn(2) == 0 || !strings.HasSuffix(lines[i], "\n") {
			indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
			lines[i] = indent + "# a comment line\n" + lines[i]
			what = "a comment line added"
		} else {
			lines[i] = strings.TrimSuffix(lines[i], "\n") + "  # trailing\n"
			what = "a trailing comment added"
		}
		next = strings.Join(lines, "")
	default:
		next, what = mutate(r, old), "a real edit"
	}
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
	c.Change(p, lsptest.Edit(rng, next[pre:len(next)-suf]))
	if c.Text(p) != next {
		t.Fatal("the test client's text drifted")
	}
	d.text = next
	if parses(next) {
		d.good, d.hasGood = next, true
	}
	return what
}

// commentSpans are the [hash, end of line) spans of the text's comments:
// a '#' outside strings, as far as a line-local look can tell (good enough
// for the fixtures; a span the grammar calls a string makes a real edit).
func commentSpans(text string) [][2]int {
	var out [][2]int
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		body := strings.TrimSuffix(line, "\n")
		if h := strings.IndexByte(body, '#'); h >= 0 && !strings.ContainsAny(body[:h], "\"'") {
			out = append(out, [2]int{off + h, off + len(body)})
		}
		off += len(line)
	}
	return out
}

// publishedDiags renders the last publication of every file: position,
// code, id and the related locations (called with the client's lock held).
func publishedDiags(c *lsptest.Client, paths []string) string {
	var out []string
	for _, p := range paths {
		pd := c.LastDiags(p)
		if pd == nil {
			continue
		}
		for _, d := range pd.Diagnostics {
			var data struct{ ID string }
			_ = json.Unmarshal(d.Data, &data)
			rel := map[string]bool{}
			for _, ri := range d.RelatedInformation {
				rel[fmt.Sprintf("%s:%d:%d", filepath.Base(ri.Location.URI.FsPath()), ri.Location.Range.Start.Line+1, ri.Location.Range.Start.Character+1)] = true
			}
			out = append(out, fmt.Sprintf("%s:%d:%d %s %s [%s]", p, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, data.ID, sortedKeys(rel)))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// coldDiags is what a cold scan of the texts finds, rendered as
// publishedDiags renders diagnostics.
func coldDiags(t *testing.T, texts map[string][]byte) string {
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
		rel := map[string]bool{}
		for _, st := range append(append([]policy.Step(nil), f.AllSteps()...), f.AllRelated()...) {
			if st.Loc.Valid() {
				rel[fmt.Sprintf("%s:%d:%d", st.Loc.File, st.Loc.Start.Line, st.Loc.Start.Col)] = true
			}
		}
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s [%s]", f.Location.File, f.Location.Line, f.Location.Column, f.Rule, f.ID, sortedKeys(rel)))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func sortedKeys(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}
