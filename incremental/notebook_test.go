package incremental

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotebookLimits: the size limit applies to a notebook's code, and the
// file itself may be containerFactor times it (outputs); a notebook that
// cannot be read is a notice, never a silent skip.
func TestNotebookLimits(t *testing.T) {
	fixture, err := os.ReadFile("../testdata/notebooks/pos-magics-and-broken-cell/research.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write := func(rel string, b []byte) {
		if err := os.WriteFile(filepath.Join(root, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("research.ipynb", fixture) // ~66 KB, of which ~2 KB code
	write("broken.ipynb", []byte("{\"cells\": [\n  {\"cell_type\": \"code\", \"source\": [\"x = 1\n"))
	load := func(limit int64) (*Snapshot, map[string]Warning) {
		snap, warns, err := LoadWith(context.Background(), root, nil, LoadOptions{MaxFileSize: limit})
		if err != nil {
			t.Fatal(err)
		}
		by := map[string]Warning{}
		for _, w := range Incomplete(warns, snap.Analyze().Problems) {
			if _, ok := by[w.Path]; !ok {
				by[w.Path] = w
			}
		}
		return snap, by
	}

	snap, by := load(16 << 10) // file 66 KB > 16 KB, code < 16 KB, file < 32 × 16 KB
	if f := snap.File("research.ipynb"); f.Facts() == nil || len(f.Facts().Agents) != 1 {
		t.Fatalf("research.ipynb not read under a 16 KB code limit: %q", f.Skipped)
	}
	if w := by["research.ipynb"]; w.Kind != WarnParseError || w.Line != 51 {
		t.Errorf("research.ipynb: first notice %+v, want the unread cell at line 51", w)
	}
	if w := by["broken.ipynb"]; w.Kind != WarnParseError || !strings.Contains(w.Message, "invalid JSON") {
		t.Errorf("broken.ipynb: notice %+v", w)
	}

	_, by = load(1 << 10) // 32 × 1 KB < 66 KB: the file is too large
	if w := by["research.ipynb"]; w.Kind != WarnTooLarge || !strings.Contains(w.Message, "32 times --max-file-size") {
		t.Errorf("file over 32x: %+v", w)
	}

	// A small file whose code is over the limit.
	code := strings.Repeat(`"x = 1\n", `, 500)
	write("research.ipynb", []byte(`{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": [`+code+`"y = 2\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`))
	_, by = load(2000)
	if w := by["research.ipynb"]; w.Kind != WarnTooLarge || !strings.Contains(w.Message, "its code is") {
		t.Errorf("code over the limit: %+v", w)
	}
}

// TestNotebookInlineIgnore: `# acg: ignore[...]` in a cell covers the
// next line of the cell, as in a .py file (the module's lines are the
// JSON lines that hold them).
func TestNotebookInlineIgnore(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"assistant.ipynb", "mailbox_tools.py"} {
		b, err := os.ReadFile("../testdata/notebooks/pos-trifecta/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "assistant.ipynb" {
			b = []byte(strings.Replace(string(b), `    "assistant = create_react_agent(\n",`,
				`    "# acg: ignore[rule-of-two] the user reviews every post in this demo\n",`+"\n"+`    "assistant = create_react_agent(\n",`, 1))
		}
		if err := os.WriteFile(filepath.Join(root, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap, _, err := Load(context.Background(), root, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := snap.Analyze()
	for _, f := range res.Findings {
		if f.Rule == "rule-of-two" {
			t.Errorf("rule-of-two not suppressed: %+v", f.Location)
		}
	}
	found := false
	for _, f := range res.Suppressed {
		found = found || (f.Rule == "rule-of-two" && f.Suppression != nil && f.Suppression.Location.Line == 52)
	}
	if !found {
		t.Errorf("no inline suppression at line 52 of the notebook: %+v", res.Suppressed)
	}
}
