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
	// The binary file is input not read: a notice, exit 3 (a Python syntax
	// error is not: the recovered tree is analysed, as in the editor).
	if code := scan([]string{root}, &out, &errb); code != exitIncomplete {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "bin.py: skipped: binary content") {
		t.Errorf("stderr %q lacks the binary warning", errb.String())
	}
	if !strings.Contains(out.String(), "bin.py: binary: skipped: binary content") || strings.Contains(out.String(), "agent.py: parse-error") {
		t.Errorf("notices are not the binary file alone:\n%s", out.String())
	}
	if err := os.Remove(filepath.Join(root, "bin.py")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := scan([]string{root}, &out, &errb); code != exitOK {
		t.Fatalf("syntax error only: exit %d: %s", code, errb.String())
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
