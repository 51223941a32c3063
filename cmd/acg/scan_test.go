package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScanExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string // substring of stdout or stderr
	}{
		{[]string{"../../testdata/inbox"}, exitFindings, "rule-of-two"},
		{[]string{"--fail-on", "none", "../../testdata/inbox"}, exitOK, "inbox_assistant"},
		{[]string{"--fail-on", "critical", "../../testdata/inbox"}, exitFindings, "CRITICAL"},
		{[]string{"../../testdata/inbox-fixed"}, exitOK, "no findings"},
		{[]string{"--fail-on", "bogus", "../../testdata/inbox"}, exitUsage, "--fail-on"},
		{[]string{"--format", "xml", "../../testdata/inbox"}, exitUsage, "--format"},
		{[]string{"../../testdata/does-not-exist"}, exitUsage, "does-not-exist"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := scan(asProject(tc.args), &out, &errb)
		if code != tc.code {
			t.Errorf("scan %v = %d, want %d (stderr %s)", tc.args, code, tc.code, errb.String())
		}
		if !strings.Contains(out.String()+errb.String(), tc.out) {
			t.Errorf("scan %v output lacks %q", tc.args, tc.out)
		}
	}
}

func TestScanWarnsAndContinuesOnBadFiles(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"bin.py":   "\x00\x01binary",
		"agent.py": "def broken(:\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	// Both are input not read in full: the binary file is skipped, and the
	// syntax error's recovered tree is analysed but may hide what follows
	// the damage. Each is a notice, exit 3.
	if code := scan([]string{root}, &out, &errb); code != exitIncomplete {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "bin.py: skipped: binary content") {
		t.Errorf("stderr %q lacks the binary warning", errb.String())
	}
	if !strings.Contains(out.String(), "bin.py: binary: skipped: binary content") || !strings.Contains(out.String(), "agent.py:1:12: parse-error: syntax error: missing \")\"") {
		t.Errorf("notices are not the binary file and the syntax error:\n%s", out.String())
	}
	if err := os.Remove(filepath.Join(root, "bin.py")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := scan([]string{root}, &out, &errb); code != exitIncomplete {
		t.Fatalf("syntax error only: exit %d: %s", code, errb.String())
	}
	if n := strings.Count(out.String(), "parse-error"); n != 1 {
		t.Errorf("want one notice for the file's syntax errors, got %d:\n%s", n, out.String())
	}
}

// TestSyntaxErrorHidingAnAgent: tree-sitter's recovery can swallow an
// agent defined after the damage, so a file with a syntax error must not
// read as "no findings".
func TestSyntaxErrorHidingAnAgent(t *testing.T) {
	root := t.TempDir()
	src := "from langgraph.prebuilt import create_react_agent\n\nx = = 1\nclass C\n\nagent = create_react_agent(\"m\", tools=[])\n"
	if err := os.WriteFile(filepath.Join(root, "agent.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := scan([]string{"--format", "json", root}, &out, &errb); code != exitIncomplete {
		t.Fatalf("exit %d, want %d (incomplete): %s", code, exitIncomplete, errb.String())
	}
	if !strings.Contains(out.String(), `"kind": "parse-error"`) || !strings.Contains(out.String(), "and 1 more in this file") {
		t.Errorf("no notice for the file's two syntax errors:\n%s", out.String())
	}
}

// TestTestsAreNotProduction: a project whose only findings are in test
// code passes every --fail-on, and fails with --include-tests.
func TestTestsAreNotProduction(t *testing.T) {
	root := t.TempDir()
	src, err := os.ReadFile("../../testdata/tests-not-production/tests/helpers.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tests/helpers.py", "test_agent.py", "conftest.py", "pkg/agent_test.py"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"--fail-on", "low"}, exitOK, "8 info"},
		{nil, exitOK, "INFO [rule-of-two]"},
		{[]string{"--include-tests"}, exitFindings, "CRITICAL [rule-of-two]"},
		{[]string{"--include-tests", "--fail-on", "critical"}, exitFindings, "in test code"},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"--engine", "builtin", "--root", root}, tc.args...), root)
		if code := scan(args, &out, &errb); code != tc.code {
			t.Errorf("scan %v = %d, want %d (stderr %s)", tc.args, code, tc.code, errb.String())
		}
		if !strings.Contains(out.String(), tc.out) {
			t.Errorf("scan %v output lacks %q:\n%s", tc.args, tc.out, out.String())
		}
	}
}
