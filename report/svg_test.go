package report_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/svgcheck"
	"github.com/acg-dev/acg/report"
)

// mapOf scans a tree with the real pipeline and draws its map; every map
// a test draws goes through parseSVG.
func mapOf(t *testing.T, dir string) ([]byte, *svgcheck.Node) {
	t.Helper()
	s, _, err := incremental.Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := s.Analyze()
	var b bytes.Buffer
	if err := report.SVG(&b, report.NewDocument(res.Graph, res.Findings)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), parseSVG(t, b.Bytes())
}

// parseSVG fails the test unless the map is well-formed XML with an svg
// root, and holds no character a scanned file put there raw.
func parseSVG(t *testing.T, b []byte) *svgcheck.Node {
	t.Helper()
	root, err := svgcheck.Parse(b)
	if err != nil {
		t.Fatalf("the map is not XML: %v", err)
	}
	if !utf8.Valid(b) {
		t.Fatal("the map is not valid UTF-8")
	}
	for i, r := range string(b) {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0xfffe || r == 0xffff {
			t.Fatalf("control character %U at byte %d", r, i)
		}
	}
	return root
}

// hostile writes the inbox example with names a hostile repository can
// give: raw ESC, vertical tab, invalid UTF-8, "]]>" and quotes in Python
// string literals, and NUL, U+FFFE and U+FFFF through YAML escapes in a
// Claude Code subagent (raw NUL makes a Python file binary and skipped).
func hostile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	agent, err := os.ReadFile("../testdata/inbox/agent.py")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := os.ReadFile("../testdata/inbox/tools.py")
	if err != nil {
		t.Fatal(err)
	}
	agent = bytes.Replace(agent, []byte("    prompt="), []byte("    name=\"\x1b[2K\x1b[1Aev\x0bil\xff\xfe]]>'\\\"<&x>\",\n    prompt="), 1)
	tools = bytes.Replace(tools, []byte("@tool\ndef send_http"), []byte("@tool(\"send\x1b[31m\xc3(_http]]>\")\ndef send_http"), 1)
	sub := "---\nname: \"n\\0ul\\x1b[2K\\v\\uFFFE\\uFFFF q\\\"'<>&]]>\"\ndescription: d\ntools: Read(./.env), WebFetch, Bash\n---\nbody\n"
	for name, b := range map[string][]byte{"agent.py": agent, "tools.py": tools, "__init__.py": nil, ".claude/agents/x.md": []byte(sub)} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSVGHostileNames: names with characters XML cannot hold still give
// a well-formed map, with the characters shown in a visible form.
func TestSVGHostileNames(t *testing.T) {
	_, root := mapOf(t, hostile(t))
	if wholeInTooltips(t, root) == 0 {
		t.Error("the hostile agent's long name is not cut")
	}
	all := root.AllText()
	if drawn := root.Drawn(); !strings.Contains(drawn, `\x1b[2K\x1b[1Aev`) {
		t.Errorf("the map does not draw the agent's name escaped:\n%s", drawn)
	}
	for _, want := range []string{`\x1b[2K\x1b[1Aev\x0bil`, "\uFFFD\uFFFD]]>'\\\"<&x>", `send\x1b[31m` + "\uFFFD(_http]]>", `n\x00ul\x1b[2K\x0b\ufffe\uffff q"'<>&]]>`} {
		if !strings.Contains(all, want) {
			t.Errorf("the map does not show %q", want)
		}
	}
}

// zoneTools returns, for one agent's row, the tool ids drawn in each zone.
func zoneTools(t *testing.T, root *svgcheck.Node, agent string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	lanes := root.All(func(n *svgcheck.Node) bool { return n.HasClass("lane") && n.Attr["data-agent"] == agent })
	if len(lanes) != 1 {
		t.Fatalf("%d rows for agent %s", len(lanes), agent)
	}
	for _, c := range lanes[0].All(svgcheck.Class("cell")) {
		z := c.Attr["data-zone"]
		out[z] = []string{}
		for _, tool := range c.All(svgcheck.Class("tool")) {
			out[z] = append(out[z], tool.Attr["data-tool"])
		}
	}
	return out
}

// TestSVGZones: a tool is drawn in the zone of each of its own effects,
// whatever its role in a finding: read_notes (reads_private, the source
// of a dangerous-chain finding) under PRIVATE DATA and not under
// UNTRUSTED SOURCES; read_email (untrusted_input and reads_private) in
// both.
func TestSVGZones(t *testing.T) {
	_, root := mapOf(t, "../testdata/inbox")
	got := zoneTools(t, root, "agent.py#inbox_assistant")
	want := map[string][]string{
		"untrusted": {"tools.py#read_email"},
		"private":   {"tools.py#read_email", "tools.py#read_notes"},
		"action":    {"tools.py#send_http"},
	}
	for z, ids := range want {
		if strings.Join(got[z], " ") != strings.Join(ids, " ") {
			t.Errorf("zone %s holds %v, want %v", z, got[z], ids)
		}
	}
	for _, tool := range root.All(svgcheck.Class("tool")) {
		if tool.Attr["data-tool"] == "tools.py#read_notes" && tool.Ancestor(svgcheck.Class("zone-untrusted")) != nil {
			t.Error("read_notes is drawn under UNTRUSTED SOURCES")
		}
	}
	// Every finding is listed with its file:line.
	var lines []string
	for _, n := range root.All(svgcheck.Class("finding")) {
		lines = append(lines, n.Drawn())
	}
	for _, want := range []string{"agent.py:9", "tools.py:37"} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("no finding line at %s in %q", want, lines)
		}
	}
	if len(lines) != 4 {
		t.Errorf("%d finding lines, want the 4 findings: %q", len(lines), lines)
	}
}

// TestSVGSameNames: two tools of one agent with the same name are told
// apart by their files.
func TestSVGSameNames(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"agent.py", "tools.py"} {
		b, err := os.ReadFile("../testdata/inbox/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "agent.py" {
			b = bytes.Replace(b, []byte("from .tools import read_email, read_notes, send_http\n"),
				[]byte("from .tools import read_email, read_notes, send_http\nfrom .hooks import send_http as send_hook\n"), 1)
			b = bytes.Replace(b, []byte("send_http]"), []byte("send_http, send_hook]"), 1)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hooks := "import requests\nfrom langchain_core.tools import tool\n\n\n@tool\ndef send_http(url: str) -> str:\n    \"\"\"Ping a hook.\"\"\"\n    return requests.post(url, timeout=5).text\n"
	if err := os.WriteFile(filepath.Join(dir, "hooks.py"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, root := mapOf(t, dir)
	var labels []string
	for _, c := range root.All(svgcheck.Class("zone-action")) {
		for _, tool := range c.All(svgcheck.Class("tool")) {
			labels = append(labels, tool.Drawn())
		}
	}
	sort.Strings(labels)
	if got := strings.Join(labels, ", "); !strings.Contains(got, "send_http (hooks.py)") || !strings.Contains(got, "send_http (tools.py)") {
		t.Errorf("the two send_http tools are drawn as %q", got)
	}
}

// TestSVGLargeScan draws the map of every example at once: it stays
// under 3000 px, is drawn most severe first, never cuts a name without
// a tooltip holding it whole, never draws two tools of one row alike,
// lists each finding line with a file:line, and accounts for every agent.
func TestSVGLargeScan(t *testing.T) {
	src, root := mapOf(t, "../testdata")
	h, err := strconv.ParseFloat(root.Attr["height"], 64)
	if err != nil || h > 3000 {
		t.Errorf("the map is %s px tall, want at most 3000", root.Attr["height"])
	}
	lanes := root.All(svgcheck.Class("lane"))
	if len(lanes) < 10 {
		t.Errorf("only %d rows drawn", len(lanes))
	}
	for _, lane := range lanes {
		seen := map[string]string{}
		for _, tool := range lane.All(svgcheck.Class("tool")) {
			label, id := strings.TrimSpace(tool.Drawn()), tool.Attr["data-tool"]
			// The badges' letters follow the label.
			label = strings.TrimRight(label, "UPEWX")
			if prev, ok := seen[label]; ok && prev != id {
				t.Errorf("row %s draws %s and %s both as %q", lane.Attr["data-agent"], prev, id, label)
			}
			seen[label] = id
			if full := strings.SplitN(tool.Title(), "\n", 2)[0]; strings.HasSuffix(label, "…") && !strings.HasPrefix(full, strings.TrimSuffix(label, "…")) {
				t.Errorf("%q is cut and its tooltip %q does not hold it", label, full)
			}
		}
		for _, f := range lane.All(svgcheck.Class("finding")) {
			if !locRe.MatchString(f.Drawn()) {
				t.Errorf("finding line without file:line: %q", f.Drawn())
			}
		}
		wholeInTooltips(t, lane)
	}
	if !bytes.Contains(src, []byte("acg scan --format text lists every finding")) {
		t.Error("the agents past the budget are not summarised")
	}
	m := restRe.FindSubmatch(src)
	if m == nil {
		t.Fatal("no count of the agents not drawn")
	}
	rest, _ := strconv.Atoi(string(m[1]))
	if total := strings.Count(string(src), `class="agent"`) + rest; !bytes.Contains(src, []byte(fmt.Sprintf("%d agents", total))) {
		t.Errorf("%d rows and %d more do not add up to the agents of the scan", len(lanes), rest)
	}
	// Rows come most severe first: a critical row never follows a lesser one.
	last := 5
	for _, lane := range lanes {
		r := 0
		for _, f := range lane.All(svgcheck.Class("finding")) {
			for i, sev := range []string{"LOW", "MEDIUM", "HIGH", "CRITICAL"} {
				if strings.Contains(f.Drawn(), " "+sev+" ") {
					r = max(r, i+1)
				}
			}
		}
		if r > last {
			t.Errorf("row %s (rank %d) after a row of rank %d", lane.Attr["data-agent"], r, last)
		}
		last = r
	}
}

// wholeInTooltips: any text cut short (an ellipsis at either end) has its
// whole in its own tooltip or its group's.
func wholeInTooltips(t *testing.T, root *svgcheck.Node) int {
	t.Helper()
	n := 0
	for _, txt := range root.All(func(n *svgcheck.Node) bool {
		return n.Name == "text" && (strings.HasSuffix(n.Text(), "…") || strings.HasPrefix(n.Text(), "…"))
	}) {
		n++
		holder := txt
		if txt.Title() == "" {
			holder = txt.Parent
		}
		if cut := strings.TrimSuffix(strings.TrimPrefix(txt.Text(), "…"), "…"); !strings.Contains(holder.Title(), cut) {
			t.Errorf("%q is cut and no tooltip holds it (%q)", txt.Text(), holder.Title())
		}
	}
	return n
}

var (
	locRe  = regexp.MustCompile(`^● \S+:\d+ `)
	restRe = regexp.MustCompile(`And (\d+) more agents?`)
)
