package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/internal/termsafe/termsafetest"
)

func TestHostileNamesAreEscaped(t *testing.T) {
	root := termsafetest.Tree(t)
	var out, errb bytes.Buffer
	scan([]string{"--fail-on", "none", root}, &out, &errb)
	text, stderr := out.String(), errb.String()
	termsafetest.AssertSafe(t, "text output", text)
	termsafetest.AssertSafe(t, "stderr", stderr)
	// The names are there, escaped, so a reader sees the attempt.
	for _, want := range []string{`\x1b[2K\x1b[1A\x1b[32mall clear\u009b31m\x9b\u202eevil\u2066\x7f\x1b]0;pwned\x07agent\nCRITICAL fake line\xff\t`,
		`support\x1b[31m\u202e\xfe.py`, `\x1b[2K\x1b[1Anotes\u202e\u009b\n\tx`} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %s:\n%s", want, text)
		}
	}
	for _, want := range []string{`bin\x1b[2K\u202e\xff.py`, `broken\x1b[1A\u2067.py`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %s:\n%s", want, stderr)
		}
	}
	// No line of the text output starts with a forged severity.
	if regexp.MustCompile(`(?m)^CRITICAL fake line`).MatchString(text) {
		t.Errorf("a name split a line of the text output:\n%s", text)
	}

	// The data formats keep each name exactly (as far as JSON holds it: a
	// byte that is not UTF-8 becomes U+FFFD) but escape what a terminal
	// would act on.
	for _, format := range []string{"json", "sarif", "jsonl"} {
		out.Reset()
		errb.Reset()
		scan([]string{"--fail-on", "none", "--format", format, root}, &out, &errb)
		termsafetest.AssertSafe(t, format+" output", out.String())
		if format != "json" {
			continue
		}
		var doc struct{ Agents []struct{ Name string } }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		want := strings.ToValidUTF8(termsafetest.Hostile+"agent\nCRITICAL fake line\xff\t", "\ufffd")
		if !slices.ContainsFunc(doc.Agents, func(a struct{ Name string }) bool { return a.Name == want }) {
			t.Errorf("JSON agents %q lack %q", doc.Agents, want)
		}
	}

	// The same names in acg explain, and the warnings it prints.
	out.Reset()
	errb.Reset()
	if code := explain([]string{"--root", root, "tool"}, &out, &errb); code != exitOK {
		t.Fatalf("explain exit %d: %s", code, errb.String())
	}
	termsafetest.AssertSafe(t, "explain output", out.String())
	termsafetest.AssertSafe(t, "explain stderr", errb.String())
	if !strings.Contains(out.String(), `\x1b[2K\x1b[1A\x1b[32mall clear`) || !strings.Contains(out.String(), `support\x1b[31m\u202e\xfe.py`) {
		t.Errorf("explain output lacks the escaped names:\n%s", out.String())
	}
	if !strings.Contains(errb.String(), `bin\x1b[2K\u202e\xff.py`) {
		t.Errorf("explain stderr lacks the escaped warning:\n%s", errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := explain([]string{"--root", root, "slack"}, &out, &errb); code != exitOK {
		t.Fatalf("explain exit %d: %s", code, errb.String())
	}
	termsafetest.AssertSafe(t, "explain output of the MCP server", out.String())
	if !strings.Contains(out.String(), `\x1b[2K\x1b[1A\u009b\u202eslack\n\tx`) {
		t.Errorf("explain output lacks the escaped server name:\n%s", out.String())
	}
}

// A config error names the file and may quote what is at fault; whatever
// a message holds, it cannot rewrite the lines around it, and each
// problem keeps a line of its own under acg's header.
func TestConfigErrorText(t *testing.T) {
	ce := config.Errors{
		{File: ".acg.yaml", Pos: config.Pos{Line: 1, Column: 1}, Msg: "bad value \x1b[2K\x1b[1A\u202eok\nCRITICAL fake"},
		{File: "sub\x1b[31m/.acg.yaml", Msg: "unknown key"},
	}
	got := errorText(fmt.Errorf("the configuration is not valid:\n%w", ce))
	want := "the configuration is not valid:\n" +
		`.acg.yaml:1:1: bad value \x1b[2K\x1b[1A\u202eok\nCRITICAL fake` + "\n" +
		`sub\x1b[31m/.acg.yaml: unknown key`
	if got != want {
		t.Errorf("errorText:\n%s\nwant:\n%s", got, want)
	}
	if got := errorText(errors.New("open \x1b[2Kx\ny: denied")); got != `open \x1b[2Kx\ny: denied` {
		t.Errorf("plain error: %q", got)
	}
}
