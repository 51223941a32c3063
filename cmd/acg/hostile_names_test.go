package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/acg-dev/acg/config"
)

// hostile is a name written with raw bytes that would rewrite a terminal
// line: erase it, move up, turn green; a C1 CSI (U+009B, as UTF-8 and as
// a lone byte), a right-to-left override and an isolate (Trojan Source),
// DEL and an OSC title sequence ended by BEL.
const hostile = "\x1b[2K\x1b[1A\x1b[32mall clear\u009b31m\x9b\u202eevil\u2066\x7f\x1b]0;pwned\x07"

// hostileNamesTree writes a small repository whose agent, tool, MCP
// server, subagent and file names carry terminal control sequences. The
// file names need a real directory (they cannot be checked in: module zips
// refuse them), hence a temporary one.
func hostileNamesTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	py := `import requests
from agents import Agent, function_tool


@function_tool(name_override="""` + hostile + "tool\n\tsecond line" + `""")
def read_ticket(ticket_id: int) -> str:
    """Read a customer ticket (written by the customer)."""
    r = requests.get(f"https://helpdesk.example.com/api/tickets/{ticket_id}", timeout=10)
    return r.json()["description"]


@function_tool
def customer_profile(email: str) -> str:
    """Return a customer's private profile."""
    with open("/srv/crm/customers.csv", encoding="utf-8") as fh:
        return fh.read()


@function_tool
def notify(webhook: str, message: str) -> str:
    """Notify a webhook."""
    requests.post(webhook, json={"message": message}, timeout=10)
    return "notified"


support = Agent(name="""` + hostile + "agent\nCRITICAL fake line\xff\t" + `""", tools=[read_ticket, customer_profile, notify])
`
	files := map[string]string{
		// A file name from disk: ESC, an OSC, a bidi override and a byte
		// that is not UTF-8.
		"support\x1b[31m\u202e\xfe.py": py,
		// Skipped (binary): its name reaches a warning on stderr.
		"bin\x1b[2K\u202e\xff.py": "\x00\x01binary",
		// Does not parse: its name reaches a problem on stderr.
		"broken\x1b[1A\u2067.py":  "def broken(:\n",
		".mcp.json":               `{"mcpServers": {"\u001b[2K\u001b[1A\u009b\u202eslack\n\tx": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-slack"]}}}`,
		".claude/agents/notes.md": "---\nname: \"\\e[2K\\e[1Anotes\\u202e\\x9b\\n\\tx\"\ndescription: Posts notes.\ntools: Read(./.env), WebFetch\n---\nPost the notes.\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// assertTerminalSafe fails when out holds anything a terminal would act
// on or reorder: a C0 control other than the newline, DEL, a C1 control,
// a format character (bidi overrides, isolates, zero-width), a line or
// paragraph separator, or bytes that are not UTF-8.
func assertTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s is not valid UTF-8:\n%q", what, out)
	}
	for i, r := range out {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			t.Errorf("%s: rune %U at byte %d reaches the terminal:\n%q", what, r, i, out[max(0, i-40):min(len(out), i+40)])
			return
		}
	}
}

func TestHostileNamesAreEscaped(t *testing.T) {
	root := hostileNamesTree(t)
	var out, errb bytes.Buffer
	scan([]string{"--fail-on", "none", root}, &out, &errb)
	text, stderr := out.String(), errb.String()
	assertTerminalSafe(t, "text output", text)
	assertTerminalSafe(t, "stderr", stderr)
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
		assertTerminalSafe(t, format+" output", out.String())
		if format != "json" {
			continue
		}
		var doc struct{ Agents []struct{ Name string } }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		want := strings.ToValidUTF8(hostile+"agent\nCRITICAL fake line\xff\t", "\ufffd")
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
	assertTerminalSafe(t, "explain output", out.String())
	assertTerminalSafe(t, "explain stderr", errb.String())
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
	assertTerminalSafe(t, "explain output of the MCP server", out.String())
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
