package report

import (
	"strings"
	"testing"

	"github.com/acg-dev/acg/internal/svgcheck"
)

func TestDistinctSuffixes(t *testing.T) {
	const long = "a_directory_name_of_thirty_chars"
	for _, tt := range []struct{ in, want []string }{
		{[]string{"a/tools.py", "b/hooks.py"}, []string{"tools.py", "hooks.py"}},
		{[]string{"inbox/agent.py", "lsp/two-sinks/agent.py", "lsp/mixed/agent.py"}, []string{"inbox/agent.py", "two-sinks/agent.py", "mixed/agent.py"}},
		{[]string{"agent.py", "x/agent.py"}, []string{"agent.py", "x/agent.py"}},
		{[]string{"same.py", "same.py"}, []string{"same.py", "same.py"}},
		// Long: the deciding component and the file name.
		{[]string{"claudecode/neg-ask-and-hook/.claude/settings.json", "claudecode/pos-unscoped-bash/.claude/settings.json"},
			[]string{"neg-ask-and-hook/…/settings.json", "pos-unscoped-bash/…/settings.json"}},
		{[]string{"x/aaaaaaaaaaaa/bbbbbbbbbbbbbbbb/f.py", "x/cccccccccccc/bbbbbbbbbbbbbbbb/f.py", "y/aaaaaaaaaaaa/bbbbbbbbbbbbbbbb/f.py"},
			[]string{"x/…/f.py", "cccccccccccc/…/f.py", "y/…/f.py"}},
		// Eliding would make two equal (q/…/f.py): those stay whole.
		{[]string{"q/m/" + long + "/f.py", "r/m/" + long + "/f.py", "z/q/" + long + "/f.py"},
			[]string{"q/m/" + long + "/f.py", "r/…/f.py", "z/q/" + long + "/f.py"}},
	} {
		if got := distinctSuffixes(tt.in); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("distinctSuffixes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSVGClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain_name":         "plain_name",
		"a\x00b\x1b[2K\x0bc": `a\x00b\x1b[2K\x0bc`,
		"tab\tnl\ncr\r":      `tab\x09nl\x0acr\x0d`,
		"bad\xff\xfeutf8":    "bad\uFFFD\uFFFDutf8",
		"nc\uFFFE\uFFFF":     `nc\ufffe\uffff`,
		"c1\u0085del\x7f":    `c1\x85del\x7f`,
		"bidi\u202eevil":     `bidi\u202eevil`,
		"ok ünïcödé 日本":      "ok ünïcödé 日本",
	} {
		if got := svgClean(in); got != want {
			t.Errorf("svgClean(%q) = %q, want %q", in, got, want)
		}
	}
	if got := xmlEsc(`]]>&<"'` + "\x00"); got != `]]&gt;&amp;&lt;&#34;&#39;\x00` {
		t.Errorf("xmlEsc: %q", got)
	}
}

func TestFit(t *testing.T) {
	if s, cut := fit("read_email", 10); s != "read_email" || cut {
		t.Errorf("fit: %q %v", s, cut)
	}
	if s, cut := fit("read_email_and_more", 10); s != "read_emai…" || !cut {
		t.Errorf("fit: %q %v", s, cut)
	}
	if s, _ := fit("日本語の名前", 7); s != "日本語…" {
		t.Errorf("fit counts wide characters as two cells: %q", s)
	}
	if s, cut := fitLeft("a/very/long/path/agent.py:9", 12); s != "…/agent.py:9" || !cut {
		t.Errorf("fitLeft: %q %v", s, cut)
	}
	if s := fitPath("mcpconfig/pos-desktop/claude_desktop_config.json:2", 43); s != "…/pos-desktop/claude_desktop_config.json:2" {
		t.Errorf("fitPath: %q", s)
	}
}

// TestSVGWithoutGraph: a document built by hand (no graph, or nothing at
// all) still gives a well-formed map.
func TestSVGWithoutGraph(t *testing.T) {
	for _, d := range []*Document{{}, textDoc()} {
		var b strings.Builder
		if err := SVG(&b, d); err != nil {
			t.Fatal(err)
		}
		if _, err := svgcheck.Parse([]byte(b.String())); err != nil {
			t.Errorf("%v\n%s", err, b.String())
		}
	}
}
