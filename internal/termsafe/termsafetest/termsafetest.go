// Package termsafetest builds a repository whose names would rewrite a
// terminal line if printed raw, and checks outputs for anything a
// terminal would act on. Tests of every output (CLI text, stderr, explain,
// the language server's log and diagnostics) share it.
package termsafetest

import (
	"os"
	"path/filepath"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Hostile is a name written with raw bytes that would rewrite a terminal
// line: erase it, move up, turn green; a C1 CSI (U+009B, as UTF-8 and as
// a lone byte), a right-to-left override and an isolate (Trojan Source),
// DEL and an OSC title sequence ended by BEL.
const Hostile = "\x1b[2K\x1b[1A\x1b[32mall clear\u009b31m\x9b\u202eevil\u2066\x7f\x1b]0;pwned\x07"

// Tree writes Files into a temporary directory: a small repository whose
// agent, tool, MCP server, subagent and file names carry terminal control
// sequences. The file names need a real directory (they cannot be checked
// in: module zips refuse them), hence a temporary one.
func Tree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range Files() {
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

// Files are the files of Tree, by path: an openai-agents agent and tool
// whose names carry Hostile (and a newline, a tab, a byte that is not
// UTF-8) in a file whose name carries control sequences too, a binary
// file and one that does not parse (their names reach warnings), an MCP
// server in .mcp.json and a Claude Code subagent, both named with
// controls through JSON and YAML escapes.
func Files() map[string]string {
	return map[string]string{
		// A file name from disk: ESC, an OSC, a bidi override and a byte
		// that is not UTF-8.
		"support\x1b[31m\u202e\xfe.py": agentPy,
		// Skipped (binary): its name reaches a warning on stderr.
		"bin\x1b[2K\u202e\xff.py": "\x00\x01binary",
		// Does not parse: its name reaches a problem on stderr.
		"broken\x1b[1A\u2067.py":  "def broken(:\n",
		".mcp.json":               `{"mcpServers": {"\u001b[2K\u001b[1A\u009b\u202eslack\n\tx": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-slack"]}}}`,
		".claude/agents/notes.md": "---\nname: \"\\e[2K\\e[1Anotes\\u202e\\x9b\\n\\tx\"\ndescription: Posts notes.\ntools: Read(./.env), WebFetch\n---\nPost the notes.\n",
	}
}

// AssertSafe fails when out holds anything a terminal would act
// on or reorder: a C0 control other than the newline, DEL, a C1 control,
// a format character (bidi overrides, isolates, zero-width), a line or
// paragraph separator, or bytes that are not UTF-8.
func AssertSafe(t testing.TB, what, out string) {
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

// agentPy: Support breaks the Rule of Two, so the names show in findings.
const agentPy = `import requests
from agents import Agent, function_tool


@function_tool(name_override="""` + Hostile + "tool\n\tsecond line" + `""")
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


support = Agent(name="""` + Hostile + "agent\nCRITICAL fake line\xff\t" + `""", tools=[read_ticket, customer_profile, notify])
`
