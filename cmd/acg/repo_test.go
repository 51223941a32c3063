package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestLicenseShipped checks that the repository and every package built
// from it carry the Apache-2.0 licence: the root LICENSE, and the VS Code
// extension's copy, which .vscodeignore must let into the .vsix.
func TestLicenseShipped(t *testing.T) {
	root, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(root, []byte("Apache License\n                           Version 2.0, January 2004")) ||
		!bytes.Contains(root, []byte("END OF TERMS AND CONDITIONS")) {
		t.Error("LICENSE is not the full Apache License 2.0 text")
	}
	ext, err := os.ReadFile("../../editors/vscode/LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ext, root) {
		t.Error("editors/vscode/LICENSE differs from LICENSE")
	}
	ignore, err := os.ReadFile("../../editors/vscode/.vscodeignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ignore), "\n!LICENSE\n") {
		t.Error(".vscodeignore leaves LICENSE out of the .vsix")
	}
	var pkg struct{ License string }
	b, err := os.ReadFile("../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.License != "Apache-2.0" {
		t.Errorf("editors/vscode/package.json license = %q, want Apache-2.0", pkg.License)
	}
}

// TestReadmeSample runs the README's first command and checks that the
// sample under "Reading the output" is what it prints: "..." on a line of
// its own stands for any number of lines, and a line ending in "..." for
// the rest of that line.
func TestReadmeSample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	cmd := fencedAfter(t, text, "## The two commands")
	args, ok := strings.CutPrefix(strings.TrimSpace(cmd), "go run ./cmd/acg ")
	if !ok {
		t.Fatalf("the README's first command is not go run ./cmd/acg …: %q", cmd)
	}
	sample := fencedAfter(t, text, "## Reading the output")
	t.Chdir("../..") // the README's commands run from the top of the checkout
	out, errs, code := cli(strings.Fields(args)...)
	if code != exitFindings {
		t.Errorf("%s: exit %d, want 1 (the README says so): %s", cmd, code, errs)
	}
	want := strings.Split(strings.TrimSuffix(sample, "\n"), "\n")
	got := strings.Split(strings.TrimSuffix(stripANSI(out), "\n"), "\n")
	if !matchElided(want, got) {
		t.Errorf("the README's sample output is not what %q prints; it prints:\n%s", cmd, out)
	}
}

// fencedAfter returns the first fenced code block after a heading.
func fencedAfter(t *testing.T, text, heading string) string {
	t.Helper()
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no %q", heading)
	}
	rest := text[i:]
	start := strings.Index(rest, "\n```")
	if start < 0 {
		t.Fatalf("no code block under %q", heading)
	}
	rest = rest[start+4:]
	rest = rest[strings.Index(rest, "\n")+1:] // past the fence's language
	end := strings.Index(rest, "\n```")
	if end < 0 {
		t.Fatalf("unterminated code block under %q", heading)
	}
	return rest[:end+1]
}

func matchElided(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchElided(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	w, g := want[0], got[0]
	if prefix, ok := strings.CutSuffix(w, "..."); ok && strings.HasPrefix(g, prefix) || w == g {
		return matchElided(want[1:], got[1:])
	}
	return false
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

func TestMatchElided(t *testing.T) {
	got := []string{"a: one", "b", "c", "d"}
	for _, tc := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"a: one", "b", "c", "d"}, true},
		{[]string{"a: ...", "...", "d"}, true},
		{[]string{"...", "c", "d"}, true},
		{[]string{"a: one", "...", "c"}, false},
		{[]string{"a: two", "..."}, false},
		{[]string{"a: one", "c", "..."}, false},
	} {
		if matchElided(tc.want, got) != tc.ok {
			t.Errorf("matchElided(%q) = %v", tc.want, !tc.ok)
		}
	}
}
