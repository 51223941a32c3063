package termsafe

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"send_http", "send_http"},
		{"Support (night shift) → notify", "Support (night shift) → notify"},
		{"naïve 日本語 émoji 🙂 a\\b", "naïve 日本語 émoji 🙂 a\\b"},
		{"\x1b[2K\x1b[1A\x1b[32mall clear", `\x1b[2K\x1b[1A\x1b[32mall clear`},
		{"a\nb\tc\rd", `a\nb\tc\rd`},
		{"\x00\x07\x08\x0b\x0c\x1f\x7f", `\x00\x07\x08\x0b\x0c\x1f\x7f`},
		{"\u0080\u009b31m\u009f", `\u0080\u009b31m\u009f`},
		{"lone \x9b and \xff\xfe bytes", `lone \x9b and \xff\xfe bytes`},
		{"truncated \xe2\x80", `truncated \xe2\x80`},
		{"access\u202e\u2066level\u2069\u202c", `access\u202e\u2066level\u2069\u202c`},
		{"\u202a\u202b\u202d\u2067\u2068\u200e\u200f\u061c", `\u202a\u202b\u202d\u2067\u2068\u200e\u200f\u061c`},
		{"zero\u200bwidth\u200d\ufeff\u00ad", `zero\u200bwidth\u200d\ufeff\u00ad`},
		{"line\u2028para\u2029", `line\u2028para\u2029`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"\ufffd stays (a real U+FFFD)", "\ufffd stays (a real U+FFFD)"},
	}
	for _, c := range cases {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if Safe(c.in) != (c.in == c.want) {
			t.Errorf("Safe(%q) = %v", c.in, Safe(c.in))
		}
	}
}

func TestSprintf(t *testing.T) {
	err := errors.New("open \x1b[2Kx: denied")
	got := Sprintf("warning: %s: %v (%d)\n%s %q", "a\x1b]0;t\x07", err, 3, []string{"\u202e"}, "q\x1b")
	want := `warning: a\x1b]0;t\x07: open \x1b[2Kx: denied (3)` + "\n" + `[\u202e] "q\x1b"`
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := Sprintf("%-6s|%6s|", "a\tb", "c"); got != `a\tb  |     c|` {
		t.Errorf("width: %q", got)
	}
}

func TestJSON(t *testing.T) {
	in := map[string]string{"name": "\x1b[2K\x7f\u009b\u202e\u2028\U000e0041 \xff ok → 日本"}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json itself escapes C0 controls and U+2028/U+2029 and
	// replaces bytes that are not UTF-8; DEL, C1 and bidi it leaves raw.
	for _, r := range string(raw) {
		if r < 0x20 || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			t.Errorf("encoding/json left %U raw", r)
		}
	}
	if !strings.Contains(string(raw), "\u009b") || !strings.Contains(string(raw), "\u202e") {
		t.Errorf("encoding/json escapes C1 or bidi now: %q; JSON is still right but no longer needed for them", raw)
	}
	out := JSON(raw)
	assertSafe(t, string(out))
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	var direct map[string]string
	_ = json.Unmarshal(raw, &direct)
	if back["name"] != direct["name"] {
		t.Errorf("JSON changed the value: %q, want %q", back["name"], direct["name"])
	}
	if plain := []byte(`{"a":"b → c"}`); &JSON(plain)[0] != &plain[0] {
		t.Error("safe JSON was copied")
	}
}

func assertSafe(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("not UTF-8: %q", s)
	}
	for _, r := range s {
		if Unsafe(r) {
			t.Fatalf("unsafe %U in %q", r, s)
		}
	}
}

// FuzzString: whatever comes in, what goes out is valid UTF-8 with no
// unsafe rune, and safe input comes out unchanged. The seed corpus is in
// testdata/fuzz/FuzzString; a long run:
//
//	go test ./internal/termsafe -run '^$' -fuzz FuzzString -fuzztime 10m
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2K", "\u202e", "\xff", "a\nb", "\u009b", "\U000e0001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := String(in)
		assertSafe(t, out)
		if Safe(in) != (out == in) {
			t.Fatalf("Safe(%q) = %v but String gives %q", in, Safe(in), out)
		}
		if strings.Count(out, "\\") < strings.Count(in, "\\") {
			t.Fatalf("a backslash was lost: %q → %q", in, out)
		}
		js, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		jout := JSON(js)
		assertSafe(t, string(jout))
		var a, b string
		if err := json.Unmarshal(js, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(jout, &b); err != nil || a != b {
			t.Fatalf("JSON(%s) = %s: %v, %q != %q", js, jout, err, a, b)
		}
		assertSafe(t, Sprintf("%s %v %q", in, errors.New(in), in))
	})
}
