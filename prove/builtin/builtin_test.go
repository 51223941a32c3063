package builtin

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
	"github.com/acg-dev/acg/prove"
)

func parse(t testing.TB, rel string, src string) *extract.File {
	t.Helper()
	tree, err := python.Parse(context.Background(), []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return python.Extract(rel, []byte(src), tree)
}

// flowsOf renders flows as "rule source-line>sink-line" for comparison.
func flowsOf(fls []prove.Flow) []string {
	var out []string
	for _, fl := range fls {
		out = append(out, fmt.Sprintf("%s %d>%d", fl.RuleID, fl.Source.Loc.Start.Line, fl.Sink.Loc.Start.Line))
	}
	sort.Strings(out)
	return out
}

const header = `import os, subprocess, requests, imaplib, sqlite3
from openai import OpenAI
from langgraph.types import interrupt
`

// Each case is a small program (after the shared imports, so its first
// line is line 4) and the flows it must yield: rule, source line,
// sink line. Cases with no flows are the sanitisers and non-flows.
func TestPropagation(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"assignment chain", `
def f(url):
    page = requests.get(url).text
    x = page
    subprocess.run(x, shell=True)
`, []string{"acg/param-to-egress 4>5", "acg/untrusted-to-exec 5>7"}}, // the response is the server's, not the URL: no param-to-exec
		{"f-string, format, concatenation", `
def f(host):
    body = requests.get("https://example.com").text
    a = f"<{body}>"
    b = "{}".format(a)
    c = "x" + b
    requests.post(host, data=c)
`, []string{"acg/param-to-egress 4>9", "acg/untrusted-to-egress 5>9"}},
		{"containers and subscripts", `
def f():
    items = []
    items.append(requests.get("https://example.com").json())
    d = {"k": items}
    os.system(d["k"][0])
`, []string{"acg/untrusted-to-exec 6>8"}},
		{"attribute access", `
def f():
    resp = requests.get("https://example.com")
    os.system(resp.text)
`, []string{"acg/untrusted-to-exec 5>6"}},
		{"attribute stores on a local object", `
def f():
    box = dict()
    box.body = requests.get("https://example.com").text
    os.system(box.body)
`, []string{"acg/untrusted-to-exec 6>7"}},
		{"status codes carry nothing", `
def f():
    resp = requests.get("https://example.com")
    os.system("echo %d" % resp.status_code)
`, nil},
		{"returns", `
def f():
    data = requests.get("https://example.com").text
    return data.strip()
`, []string{"acg/untrusted-to-return 5>6"}},
		{"summary: helper returns a source", `
def fetch(u):
    return requests.get(u).text

def tool():
    page = fetch("https://example.com")
    subprocess.run(page)
`, []string{"acg/param-to-egress 4>5", "acg/untrusted-to-exec 5>9", "acg/untrusted-to-return 5>5"}},
		{"summary: parameter reaches a sink in a helper", `
def run(cmd):
    subprocess.run(cmd, shell=True)

def tool(command: str):
    run(command)
`, []string{"acg/param-to-exec 4>5", "acg/param-to-exec 7>5"}},
		{"summary: methods through self", `
class Mailer:
    def send(self, to, text):
        self._post(text)

    def _post(self, payload):
        requests.post("https://hooks.example.com", json=payload)
`, []string{"acg/param-to-egress 5>9", "acg/param-to-egress 8>9"}},
		{"an approval dominating the sink sanitises", `
def tool(cmd):
    ok = interrupt({"cmd": cmd})
    subprocess.run(cmd)
`, nil},
		{"an approval in one branch does not", `
def tool(cmd, ask):
    if ask:
        interrupt({"cmd": cmd})
    subprocess.run(cmd)
`, []string{"acg/param-to-exec 4>7"}},
		{"an approval at the call site sanitises the callee", `
def run(cmd):
    subprocess.run(cmd)

def tool(c):
    interrupt("run?")
    run(c)
`, []string{"acg/param-to-exec 4>5"}},
		{"model output to a command; untrusted text into a prompt", `
client = OpenAI()

def tool():
    page = requests.get("https://example.com").text
    out = client.chat.completions.create(model="m", messages=[{"role": "user", "content": page}])
    os.system(out.choices[0].message.content)
`, []string{"acg/llm-to-exec 8>9", "acg/untrusted-to-exec 7>9", "acg/untrusted-to-prompt 7>8"}},
		{"mail fetched and written to a database", `
def tool(folder):
    conn = imaplib.IMAP4_SSL("imap.example.com")
    _, data = conn.fetch("1", "(RFC822)")
    db = sqlite3.connect("x.db")
    db.execute("INSERT INTO m VALUES (?)", (data,))
`, []string{"acg/untrusted-to-write 6>8"}},
		{"a literal SELECT writes nothing", `
def tool(topic):
    db = sqlite3.connect("x.db")
    return db.execute("SELECT body FROM notes WHERE topic = ?", (topic,))
`, nil},
		{"a search API's query parameter is not egress; a chosen URL is", `
def tool(query, url):
    requests.get("https://api.search.example/v1", params={"q": query})
    requests.get(url)
`, []string{"acg/param-to-egress 4>6"}},
		{"open for reading is not a sink", `
def tool(path):
    with open(path) as fh:
        return fh.read()
`, nil},
		{"open for writing is", `
def tool(path, text):
    with open(path, "w") as fh:
        fh.write(text)
`, []string{"acg/param-to-write 4>5", "acg/param-to-write 4>6"}},
		{"recursion terminates", `
def a(x):
    return b(x)

def b(x):
    subprocess.run(x)
    return a(x)
`, []string{"acg/param-to-exec 4>8", "acg/param-to-exec 7>8"}},
		{"a constant command is no flow", `
def tool():
    subprocess.run(["ls", "-l"])
`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := parse(t, "t.py", header+strings.TrimPrefix(c.src, "\n"))
			got := flowsOf(Prove(f, []byte(header+strings.TrimPrefix(c.src, "\n")), "test"))
			want := append([]string(nil), c.want...)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("flows:\n  got  %q\n  want %q", got, want)
			}
		})
	}
}

// TestInbox checks the demo's two flows step by step: every step on the
// line that does it.
func TestInbox(t *testing.T) {
	src, err := os.ReadFile("../../testdata/inbox/tools.py")
	if err != nil {
		t.Fatal(err)
	}
	f := parse(t, "tools.py", string(src))
	fls := Prove(f, src, "test")
	var ret, post *prove.Flow
	for i := range fls {
		switch fls[i].RuleID {
		case "acg/untrusted-to-return":
			ret = &fls[i]
		case "acg/param-to-egress":
			if strings.Contains(fls[i].Source.Message, "body") {
				post = &fls[i]
			}
		}
	}
	if ret == nil || post == nil {
		t.Fatalf("missing flows: %q", flowsOf(fls))
	}
	lines := strings.Split(string(src), "\n")
	check := func(fl *prove.Flow, want []string) {
		t.Helper()
		if len(fl.Steps) != len(want) {
			t.Fatalf("%s: %d steps, want %d", fl.RuleID, len(fl.Steps), len(want))
		}
		for i, s := range fl.Steps {
			line := lines[s.Loc.Start.Line-1]
			col := int(s.Loc.Start.Byte) - lineStart(src, int(s.Loc.Start.Line))
			if !strings.HasPrefix(line[col:], want[i]) {
				t.Errorf("%s step %d (%q) at %d:%d reads %q, want %q", fl.RuleID, i, s.Message, s.Loc.Start.Line, s.Loc.Start.Col, line[col:], want[i])
			}
		}
	}
	check(ret, []string{`conn.fetch(num, "(RFC822)")`, "data", "msg = email", "bodies.append", "return"})
	check(post, []string{"body: str", "requests.post(url, data=body"})
}

func lineStart(src []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		off += strings.IndexByte(string(src[off:]), '\n') + 1
	}
	return off
}

// TestNotPython: other files have no flows, and nothing breaks on a file
// that does not parse.
func TestBrokenFile(t *testing.T) {
	if Paths(nil) != nil || Paths(&extract.File{Lang: extract.LangJSON}) != nil {
		t.Error("flows from nothing")
	}
	src := "def f(x:\n    subprocess.run(x\n  return requests.get(\n"
	_ = Prove(parse(t, "b.py", src), []byte(src), "")
}
