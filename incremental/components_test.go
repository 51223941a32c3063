package incremental

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestAnalyzerReusesUnreachedGroups checks that an edit rebuilds only the
// group of files it reaches, and that a syntax error keeps the last good
// facts of the document.
func TestAnalyzerReusesUnreachedGroups(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"../testdata/inbox", "../testdata/inbox-fixed"} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			b, _ := os.ReadFile(filepath.Join(d, e.Name()))
			write(filepath.Join(filepath.Base(d), e.Name()), string(b))
		}
	}
	ws := NewWorkspace(root, func(m string) { t.Log(m) })
	if _, err := ws.Load(ctx, nil); err != nil {
		t.Fatal(err)
	}
	first, err := ws.Analyze(ctx, ws.Snapshot(), nil)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]*component{}
	for _, c := range ws.an.comps {
		for _, f := range c.files {
			groups[f.Path] = c
		}
	}
	if groups["inbox/agent.py"] != groups["inbox/tools.py"] || groups["inbox/agent.py"] == groups["inbox-fixed/agent.py"] {
		t.Fatalf("want inbox and inbox-fixed as separate groups, each with agent and tools")
	}
	src := ws.Snapshot().File("inbox/tools.py").Src
	if _, err := ws.Open(ctx, "inbox/tools.py", 1, src); err != nil {
		t.Fatal(err)
	}
	// A comment edit: the inbox group is rebuilt, inbox-fixed is not.
	at := bytes.Index(src, []byte("@tool"))
	if _, _, err := ws.Change(ctx, "inbox/tools.py", 2, []Edit{{Start: at, End: at, Text: []byte("# note\n")}}); err != nil {
		t.Fatal(err)
	}
	second, err := ws.Analyze(ctx, ws.Snapshot(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ws.an.comps {
		for _, f := range c.files {
			switch f.Path {
			case "inbox-fixed/agent.py":
				if c != groups[f.Path] {
					t.Error("the inbox-fixed group was rebuilt by an edit in inbox")
				}
			case "inbox/tools.py":
				if c == groups[f.Path] {
					t.Error("the edited group was not rebuilt")
				}
			}
		}
	}
	if len(second.Findings) != len(first.Findings) {
		t.Fatalf("a comment changed the findings: %d → %d", len(first.Findings), len(second.Findings))
	}
	// A syntax error keeps the last good facts; fixing it takes the new text.
	now, _ := ws.Document("inbox/tools.py")
	s, fresh, err := ws.Change(ctx, "inbox/tools.py", 3, []Edit{{Start: at, End: at, Text: []byte("def broken(:\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if fresh || !bytes.Equal(s.File("inbox/tools.py").Src, now.Text) || s.File("inbox/tools.py").Version != 2 {
		t.Fatal("a syntax error replaced the last good facts")
	}
	third, err := ws.Analyze(ctx, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(third.Findings) != len(first.Findings) {
		t.Fatalf("findings changed while the file was broken: %d → %d", len(first.Findings), len(third.Findings))
	}
	s, fresh, err = ws.Change(ctx, "inbox/tools.py", 4, []Edit{{Start: at, End: at + len("def broken(:\n")}})
	if err != nil || !fresh || s.File("inbox/tools.py").Version != 4 {
		t.Fatalf("fixing the syntax error: fresh=%v err=%v", fresh, err)
	}
}
