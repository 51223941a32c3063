package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
			// Checked before the golden, and under -update too: rewriting
			// goldens cannot bless a change in what a fixture is for.
			if err := checkExpectedRules(dir, out.Bytes()); err != nil {
				t.Fatal(err)
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

// checkExpectedRules compares the findings per rule of a scan with the
// fixture's CASE.md line "Findings: none" or "Findings: rule-of-two 1,
// missing-approval 2": the expectation stays next to the input, and a
// regression needs an edit of the fixture's own description to pass.
func checkExpectedRules(dir string, out []byte) error {
	want, err := expectedRules(filepath.Join(dir, "CASE.md"))
	if err != nil {
		return err
	}
	var doc struct{ Findings []struct{ Rule string } }
	if err := json.Unmarshal(out, &doc); err != nil {
		return err
	}
	got := map[string]int{}
	for _, f := range doc.Findings {
		got[f.Rule]++
	}
	if formatRules(got) != formatRules(want) {
		return fmt.Errorf("CASE.md expects %q, the scan gives %q", formatRules(want), formatRules(got))
	}
	return nil
}

func expectedRules(caseFile string) (map[string]int, error) {
	f, err := os.Open(caseFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		spec, ok := strings.CutPrefix(sc.Text(), "Findings:")
		if !ok {
			continue
		}
		want := map[string]int{}
		if spec = strings.TrimSpace(spec); spec == "none" {
			return want, nil
		}
		for _, part := range strings.Split(spec, ",") {
			rule, n, ok := strings.Cut(strings.TrimSpace(part), " ")
			count, err := strconv.Atoi(n)
			if !ok || err != nil || count <= 0 {
				return nil, fmt.Errorf("%s: bad Findings entry %q (want \"rule N\")", caseFile, part)
			}
			want[rule] = count
		}
		return want, nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s has no \"Findings:\" line (\"Findings: none\" or \"Findings: rule-of-two 1, toxic-flow 2\")", caseFile)
}

// formatRules is the canonical form of a rule count, for comparing and
// for messages.
func formatRules(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(m))
	for r, n := range m {
		parts = append(parts, r+" "+strconv.Itoa(n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
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
