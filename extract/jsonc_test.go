package extract

import (
	"strings"
	"testing"
)

func TestParseJSONC(t *testing.T) {
	src := "\ufeff{\n  // servers\n  \"servers\": {\"a\": {\"args\": [\"x\", \"y\",],}, /* c */},\n  \"n\": -1.5e3, \"t\": true, \"z\": null,\n  \"s\": \"\\u00e9\\ud83d\\ude00\\n\"\n}\n"
	v, err := ParseJSONC([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	args := v.Get("servers").Get("a").Get("args").Strings()
	if strings.Join(args, ",") != "x,y" {
		t.Errorf("args = %v", args)
	}
	if s, _ := v.Get("s").String(); s != "é😀\n" {
		t.Errorf("s = %q", s)
	}
	if n := v.Get("n"); n.Kind != JSONNumber || n.Str != "-1.5e3" {
		t.Errorf("n = %+v", n)
	}
	if b := v.Get("t"); b.Kind != JSONBool || !b.Bool {
		t.Errorf("t = %+v", b)
	}
	m := v.Member("servers")
	if got := src[m.KeyStart:m.KeyEnd]; got != `"servers"` {
		t.Errorf("key range holds %q", got)
	}
}

func TestParseJSONCErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		off       int
	}{
		{"", "empty", 0},
		{`{"a": 1 "b": 2}`, `',' or '}' is expected after the value of "a"`, 8},
		{`{"a" 1}`, `':' is expected after the key "a"`, 5},
		{`{"a": "x`, "unterminated string", 6},
		{"{\"a\": \"x\ny\"}", "newline inside quotes", 6},
		{`{"a": [1, 2`, "not closed", 11},
		{`{"a": tru}`, "unexpected character", 6},
		{`{"a": 1} x`, "after the end", 9},
		{`{"a": "\q"}`, `invalid escape \q`, 7},
		{`{/* open`, "unterminated /* comment", 1},
		{`{a: 1}`, "a key in double quotes is expected", 1},
		{strings.Repeat("[", 300), "nesting is deeper", 257},
	} {
		_, err := ParseJSONC([]byte(tc.src))
		je, ok := err.(*JSONError)
		if !ok {
			t.Errorf("%q: err = %v, want a JSONError", tc.src, err)
			continue
		}
		if !strings.Contains(je.Msg, tc.want) || je.Offset != tc.off {
			t.Errorf("%q: got %q at %d, want %q at %d", tc.src, je.Msg, je.Offset, tc.want, tc.off)
		}
	}
}

// FuzzParseJSONC: no input makes the scanner panic or loop; ranges stay
// inside the source.
func FuzzParseJSONC(f *testing.F) {
	for _, s := range []string{`{"mcpServers": {"a": {"command": "x", "args": ["-y"]}}}`, `{"a": [1, {"b": null},],}`, "{\"a\": \"\\ud83d\"}", `// c` + "\n{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, err := ParseJSONC(src)
		if err != nil {
			if je, ok := err.(*JSONError); !ok || je.Offset < 0 || je.Offset > len(src) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		var walk func(*JSONValue)
		walk = func(v *JSONValue) {
			if v.Start < 0 || v.End > len(src) || v.Start > v.End {
				t.Fatalf("range %d-%d outside %d bytes", v.Start, v.End, len(src))
			}
			for _, m := range v.Members {
				walk(m.Value)
			}
			for _, e := range v.Elems {
				walk(e)
			}
		}
		walk(v)
	})
}
