package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// caseDirs are the fixtures: every directory under testdata holding a
// CASE.md that says what it tests and what to expect.
func caseDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "CASE.md" {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no fixtures found")
	}
	return dirs
}

func goldenName(dir string) string {
	rel, _ := filepath.Rel("../../testdata", dir)
	return filepath.Join("../../testdata/golden", strings.ReplaceAll(filepath.ToSlash(rel), "/", "__")+".json")
}

// TestGolden scans every fixture and compares the JSON output with its
// golden file: the contract, every agent, tool, label and finding.
func TestGolden(t *testing.T) {
	for _, dir := range caseDirs(t) {
		dir := dir
		t.Run(filepath.ToSlash(strings.TrimPrefix(dir, "../../testdata/")), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := scan(asProject([]string{"--format", "json", "--fail-on", "none", "--engine", "builtin", dir}), &out, &errb)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			g := goldenName(dir)
			if *update {
				if err := os.MkdirAll(filepath.Dir(g), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(g, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(g)
			if err != nil {
				t.Fatalf("no golden file (run go test ./cmd/acg -run Golden -update): %v", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("output differs from %s (rerun with -update and review the diff):\n%s", g, diffLines(string(want), out.String()))
			}
		})
	}
}

// diffLines shows the first differing lines, enough to see what changed.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + a + "\n  got:  " + c + "\n")
			if shown++; shown > 12 {
				break
			}
		}
	}
	return b.String()
}
