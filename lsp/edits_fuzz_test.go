package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"unicode/utf8"

	"github.com/acg-dev/acg/incremental"
)

// FuzzEdits: random didChange lists, positions negative, reversed, past the
// end, in the middle of characters, applied the way didChange does (decode
// from JSON, apply, then incremental.Workspace.Change re-parses). Never a
// panic; a list is accepted exactly when a reference model says it is
// valid (every position two non-negative integers, no range starting after
// its end); the document is then what the reference makes of it, and a
// rejected list leaves it as it was.
func FuzzEdits(f *testing.F) {
	f.Add([]byte("import os\nx = 1\n"), []byte{1, 0, 0, 0, 0, 3, 'a', 'b', 'c'}, false)
	f.Add([]byte("a = '🎉漢'\r\nb = 2\rc"), []byte{1, 0, 6, 0, 9, 1, 'x', 2, 0xfe, 0xfe, 0, 0, 0}, false)
	f.Add([]byte("a = '🎉漢'\nb"), []byte{1, 0, 7, 0, 8, 0, 1, 5, 0, 0, 0, 0}, true)
	f.Add([]byte("def f(:\n  pass\n"), []byte{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 1, 2, 1, 0, 1}, false)
	root := f.TempDir()
	execs := 0
	f.Fuzz(func(t *testing.T, text, script []byte, byteColumns bool) {
		// Trees live in C memory, freed by finalizers, which only a GC
		// runs; the Go heap of an exec is too small to start one.
		if execs++; execs%200 == 0 {
			runtime.GC()
		}
		enc := utf16
		if byteColumns {
			enc = utf8Enc
		}
		ctx := context.Background()
		ws := incremental.NewWorkspace(root, func(string) {})
		if _, err := ws.Open(ctx, "a.py", 1, text); err != nil {
			t.Skip("not a document:", err)
		}
		want := append([]byte(nil), text...)
		version := int32(1)
		for lists := 0; len(script) > 0 && lists < 16; lists++ {
			var ops []refChange
			ops, script = nextList(script)
			raw := make([]json.RawMessage, len(ops))
			for i, o := range ops {
				raw[i] = o.json()
			}
			changes, invalid := decodeChanges(raw)
			var edits []incremental.Edit
			var got []byte
			var err error
			if invalid == "" {
				edits, got, err = applyChanges(want, enc, changes)
			}
			next, valid := refApply(want, enc, ops)
			if accepted := invalid == "" && err == nil; accepted != valid {
				t.Fatalf("list %s: accepted %v (%s %v), the reference says valid %v", raw, accepted, invalid, err, valid)
			}
			if !valid {
				continue
			}
			if !bytes.Equal(got, next) {
				t.Fatalf("list %s on %q: %q, the reference makes %q", raw, want, got, next)
			}
			version++
			if _, _, err := ws.Change(ctx, "a.py", version, edits); err != nil {
				t.Fatalf("the workspace refused the edits %v: %v", edits, err)
			}
			want = next
			if doc, _ := ws.Document("a.py"); !bytes.Equal(doc.Text, want) {
				t.Fatalf("the workspace holds %q, want %q", doc.Text, want)
			}
		}
	})
}

// refChange is a change as the fuzzer makes it: positions may be negative.
type refChange struct {
	whole  bool
	sl, sc int
	el, ec int
	text   string
}

func (c refChange) json() json.RawMessage {
	t, _ := json.Marshal(c.text)
	if c.whole {
		return json.RawMessage(fmt.Sprintf(`{"text":%s}`, t))
	}
	return json.RawMessage(fmt.Sprintf(`{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"text":%s}`,
		c.sl, c.sc, c.el, c.ec, t))
}

// nextList decodes one didChange list from the script: a count, then per
// change a kind, four positions (signed bytes, with one value standing for
// a line far past the end) and a text.
func nextList(s []byte) ([]refChange, []byte) {
	take := func() int {
		if len(s) == 0 {
			return 0
		}
		b := s[0]
		s = s[1:]
		return int(b)
	}
	pos := func() int {
		v := int(int8(take()))
		if v == 127 {
			return 2147483647
		}
		return v / 4
	}
	n := take()%3 + 1
	var out []refChange
	for range n {
		c := refChange{whole: take()%8 == 7}
		if !c.whole {
			c.sl, c.sc, c.el, c.ec = pos(), pos(), pos(), pos()
		}
		k := min(take()%8, len(s))
		c.text = string(s[:k])
		s = s[k:]
		out = append(out, c)
	}
	return out, s
}

// refApply is the reference: validity, then the text, with positions
// converted by walking the text, independently of mapper.
func refApply(text []byte, enc encoding, cs []refChange) ([]byte, bool) {
	for _, c := range cs {
		if c.whole {
			continue
		}
		if c.sl < 0 || c.sc < 0 || c.el < 0 || c.ec < 0 || c.sl > c.el || c.sl == c.el && c.sc > c.ec {
			return nil, false
		}
	}
	for _, c := range cs {
		// JSON carries text as Unicode: invalid bytes arrive replaced.
		b, _ := json.Marshal(c.text)
		_ = json.Unmarshal(b, &c.text)
		if c.whole {
			text = []byte(c.text)
			continue
		}
		s, e := refOffset(text, enc, c.sl, c.sc), refOffset(text, enc, c.el, c.ec)
		text = append(append(append([]byte(nil), text[:s]...), c.text...), text[e:]...)
	}
	return text, true
}

func refOffset(text []byte, enc encoding, line, char int) int {
	off := 0
	for l := 0; l < line; l++ {
		i := bytes.IndexAny(text[off:], "\r\n")
		if i < 0 {
			return len(text)
		}
		off += i + 1
		if text[off-1] == '\r' && off < len(text) && text[off] == '\n' {
			off++
		}
	}
	units := 0
	for off < len(text) && text[off] != '\n' && text[off] != '\r' {
		r, size := utf8.DecodeRune(text[off:])
		w := 1
		switch {
		case enc == utf8Enc:
			w = size
		case r >= 0x10000:
			w = 2
		}
		if units+w > char {
			break
		}
		units += w
		off += size
	}
	return off
}
