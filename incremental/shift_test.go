package incremental

import (
	"context"
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
)

const shiftSrc = `import requests
from langchain_core.tools import tool

# The tools of the agent.
@tool
def send(url: str, body: str) -> str:
    """Send body to url."""
    # post it
    return requests.post(url, data=body).text  # the reply
tools = [send,  # the sender
         ]
`

// TestCommentEdit: only an edit inside one comment between statements, that
// keeps its bounds and holds no directive, shifts; everything else is a
// change.
func TestCommentEdit(t *testing.T) {
	at := func(s string) int {
		i := strings.Index(shiftSrc, s)
		if i < 0 {
			t.Fatalf("no %q", s)
		}
		return i
	}
	for _, c := range []struct {
		name       string
		start, end int
		text       string
		want       bool
	}{
		{"type into a line comment", at("post it") + 4, at("post it") + 4, "ed", true},
		{"delete from a line comment", at("post it"), at("post it") + 5, "", true},
		{"append to a trailing comment", at("the reply") + 9, at("the reply") + 9, " text", true},
		{"type into the first comment", at("tools of"), at("tools of"), "x", true},
		{"a directive", at("post it"), at("post it"), "acg: ignore[egress] ok ", false},
		{"a directive held before", at("post it"), at("post it") + 7, "acg: x", false},
		{"a newline into a comment", at("post it") + 4, at("post it") + 4, "\n    ", false},
		{"the hash removed", at("# post it"), at("# post it") + 1, "", false},
		{"a comment made", at("return requests"), at("return requests"), "# ", false},
		{"a comment inside brackets", at("the sender"), at("the sender"), "x", false},
		{"code", at("data=body") + 5, at("data=body") + 9, "url", false},
		{"a docstring", at("Send body"), at("Send body"), "x", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := []byte(shiftSrc)
			next := []byte(shiftSrc[:c.start] + c.text + shiftSrc[c.end:])
			ot, err := python.Parse(context.Background(), old, nil)
			if err != nil {
				t.Fatal(err)
			}
			nt, err := python.Parse(context.Background(), next, nil)
			if err != nil {
				t.Fatal(err)
			}
			sh, ok := commentEdit(old, next, ot, nt)
			if ok != c.want {
				t.Fatalf("commentEdit = %v, want %v (%+v)", ok, c.want, sh)
			}
			if ok && (sh.Map(len(old)) != len(next) || sh.Map(0) != 0) {
				t.Fatalf("shift %+v does not move the ends of the text", sh)
			}
		})
	}
}

// TestCommentEditShiftsFacts: a document edited inside a comment keeps facts
// that are the old facts moved by the shift, extracted only when asked for,
// and the snapshots say how far they moved.
func TestCommentEditShiftsFacts(t *testing.T) {
	ctx := context.Background()
	w := NewWorkspace(t.TempDir(), nil)
	s0, err := w.Open(ctx, "a.py", 1, []byte(shiftSrc))
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(shiftSrc, "post it")
	s1, ok, err := w.Change(ctx, "a.py", 2, []Edit{{Start: at, End: at, Text: []byte("now ")}})
	if err != nil || !ok {
		t.Fatalf("change: %v %v", ok, err)
	}
	s2, _, err := w.Change(ctx, "a.py", 3, []Edit{{Start: at, End: at, Text: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	f := s2.File("a.py")
	if f.lazy == nil || f.lazy.tree == nil {
		t.Fatal("a comment edit extracted the file at once")
	}
	shifts, ok := s2.ShiftsSince(s0)
	if !ok || len(shifts) != 2 {
		t.Fatalf("ShiftsSince(s0) = %+v, %v; want two shifts", shifts, ok)
	}
	if sh, ok := s2.ShiftsSince(s1); !ok || len(sh) != 1 {
		t.Fatalf("ShiftsSince(s1) = %+v, %v; want one shift", sh, ok)
	}
	cold, err := NewFile(ctx, "a.py", f.Src, nil)
	if err != nil {
		t.Fatal(err)
	}
	oldSend, newSend, coldSend := s0.File("a.py").Facts().Tools[0], f.Facts().Tools[0], cold.Facts().Tools[0]
	if newSend.NameLoc != coldSend.NameLoc || len(newSend.Func.Calls) != len(coldSend.Func.Calls) {
		t.Fatalf("lazy facts %+v differ from a cold extraction's %+v", newSend.NameLoc, coldSend.NameLoc)
	}
	post := func(tl *extract.Tool) int { return int(tl.Func.Calls[len(tl.Func.Calls)-1].Loc.Start.Byte) }
	moved := post(oldSend)
	for _, sh := range shifts {
		moved = sh.Map(moved)
	}
	if moved != post(coldSend) || moved == post(oldSend) {
		t.Fatalf("the call after the comment moved from %d to %d; a cold extraction has it at %d", post(oldSend), moved, post(coldSend))
	}

	// A real change ends the run.
	s3, _, err := w.Change(ctx, "a.py", 4, []Edit{{Start: 0, End: 0, Text: []byte("import os\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s3.ShiftsSince(s2); ok {
		t.Fatal("an import added counts as a comment edit")
	}
}

// TestSameFactsShift: an edit the extraction gives the same facts for,
// moved along (a docstring, spaces at the end of a line), is a shift too;
// one that changes a fact, or moves one to another line or column, is not.
func TestSameFactsShift(t *testing.T) {
	src := shiftSrc + `

def helper(items):
    """Scale the items."""
    return [i * 2 for i in items]
`
	for _, c := range []struct {
		name, from, to string
		want           bool
	}{
		{"a helper's docstring", "Scale the", "Scale all the", true},
		{"spaces at the end of a line", "items):\n", "items):   \n", true},
		{"spaces inside a line, columns moved", "return [i * 2", "return [i  *  2", false},
		{"a tool's docstring (no check reads it)", "Send body", "Send the body", true},
		{"a statement without facts, lines below it moved", "    return [i", "    pass\n    return [i", false},
		{"a call argument", "data=body", "data=url", false},
		{"a callee", "requests.post", "requests.get", false},
		{"a name", "def helper", "def helper2", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			w := NewWorkspace(t.TempDir(), nil)
			s0, err := w.Open(ctx, "a.py", 1, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			at := strings.Index(src, c.from)
			s1, ok, err := w.Change(ctx, "a.py", 2, []Edit{{Start: at, End: at + len(c.from), Text: []byte(c.to)}})
			if err != nil || !ok {
				t.Fatalf("change: %v %v", ok, err)
			}
			if _, got := s1.ShiftsSince(s0); got != c.want {
				t.Fatalf("ShiftsSince = %v, want %v", got, c.want)
			}
		})
	}
}

// TestLazyFactsWhileEditing: the lazy extraction of a comment edit's file
// runs on an analysis goroutine while the next edits parse on; they must
// not share a tree (go-tree-sitter trees are not safe for concurrent use;
// run with -race).
func TestLazyFactsWhileEditing(t *testing.T) {
	ctx := context.Background()
	w := NewWorkspace(t.TempDir(), nil)
	if _, err := w.Open(ctx, "a.py", 1, []byte(shiftSrc)); err != nil {
		t.Fatal(err)
	}
	done := make(chan *extract.File, 20)
	text := shiftSrc
	for v := int32(2); v < 22; v++ {
		// Different comments in turn: each check walks the tree another way.
		at := strings.Index(text, []string{"post it", "the reply", "tools of"}[v%3])
		text = text[:at] + "x" + text[at:]
		s, _, err := w.Change(ctx, "a.py", v, []Edit{{Start: at, End: at, Text: []byte("x")}})
		if err != nil {
			t.Fatal(err)
		}
		f := s.File("a.py")
		if f.lazy == nil {
			t.Fatalf("edit %d was not a comment edit", v)
		}
		go func() { done <- f.Facts() }()
	}
	for i := 0; i < 20; i++ {
		if <-done == nil {
			t.Fatal("a lazy extraction failed")
		}
	}
}
