package incremental

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// Early cutoff for the language server: an edit that stays inside one
// comment of a Python document (typing a word into it, deleting some) does
// not change what acg extracts from the file, only where the bytes after it
// sit. The comment is an extra token of the grammar: the rest of the token
// stream, and so the tree and the facts, are the same up to that shift. So
// the analysis of the text before the edit, with its byte offsets in the
// file moved by the Shift, is the analysis of the text after it, and the
// server republishes it without extracting or analysing anything.
//
// A comment that holds (or held) "acg:" is no such edit: directives are read
// from comments. An edit that makes or ends a comment, or joins two lines,
// changes the comment's bounds and is a real change.

// Shift is how the byte offsets of one file moved with a comment edit: the
// bytes [Start, OldEnd) of the old text became [Start, NewEnd) of the new.
type Shift struct {
	Path                  string
	Start, OldEnd, NewEnd int
}

// Map moves a byte offset of the old text to the new text. An offset inside
// the replaced bytes (none of the facts has one: they are inside a comment)
// goes to its start.
func (s Shift) Map(off int) int {
	switch {
	case off >= s.OldEnd:
		return off + s.NewEnd - s.OldEnd
	case off > s.Start:
		return s.Start
	}
	return off
}

// ShiftsSince reports whether s differs from base only by comment edits of
// open documents, and returns their shifts in the order they were made
// (apply each to the offsets the previous one gave). s == base gives none.
func (s *Snapshot) ShiftsSince(base *Snapshot) ([]Shift, bool) {
	if s == base {
		return nil, true
	}
	if s.Root != base.Root {
		return nil, false
	}
	for i, seq := range s.shiftSeqs {
		if seq == base.Seq {
			return s.shifts[i:], true
		}
	}
	return nil, false
}

// maxShifts bounds the record of a run of comment edits: a longer run
// starts its record again from the snapshot it reached.
const maxShifts = 256

// shifted records that n was made from p by a comment edit.
func (n *Snapshot) shifted(p *Snapshot, sh Shift) {
	if len(p.shiftSeqs) > 0 && len(p.shiftSeqs) < maxShifts {
		n.shiftSeqs = append(p.shiftSeqs[:len(p.shiftSeqs):len(p.shiftSeqs)], p.Seq)
		n.shifts = append(p.shifts[:len(p.shifts):len(p.shifts)], sh)
		return
	}
	n.shiftSeqs, n.shifts = []uint64{p.Seq}, []Shift{sh}
}

// diffSpan is the one edit that turns old into new: the bytes between
// their common prefix and their common suffix.
func diffSpan(old, new []byte) (start, oldEnd, newEnd int) {
	n := min(len(old), len(new))
	for start < n && old[start] == new[start] {
		start++
	}
	suffix := 0
	for suffix < n-start && old[len(old)-1-suffix] == new[len(new)-1-suffix] {
		suffix++
	}
	return start, len(old) - suffix, len(new) - suffix
}

// commentEdit reports whether changing old (parsed as oldTree) into new
// (parsed as newTree) only edits the inside of one comment, and how offsets
// move.
func commentEdit(old, new []byte, oldTree, newTree *sitter.Tree) (Shift, bool) {
	start, oldEnd, newEnd := diffSpan(old, new)
	if start == oldEnd && start == newEnd {
		return Shift{}, false // the same text: nothing to shift, and no edit to cut off
	}
	oc := smallestCovering(oldTree.RootNode(), start, oldEnd)
	nc := smallestCovering(newTree.RootNode(), start, newEnd)
	if oc == nil || nc == nil || oc.Type() != "comment" || nc.Type() != "comment" || !betweenStatements(oc) {
		return Shift{}, false
	}
	os, oe := int(oc.StartByte()), int(oc.EndByte())
	ns, ne := int(nc.StartByte()), int(nc.EndByte())
	delta := newEnd - oldEnd
	if os != ns || oe+delta != ne || os >= start {
		return Shift{}, false
	}
	if bytes.Contains(old[os:oe], []byte("acg:")) || bytes.Contains(new[ns:ne], []byte("acg:")) {
		return Shift{}, false
	}
	if oldTree.RootNode().HasError() != newTree.RootNode().HasError() {
		return Shift{}, false
	}
	return Shift{Start: start, OldEnd: oldEnd, NewEnd: newEnd}, true
}

// betweenStatements reports a comment that is a statement of a module or a
// block (a line of its own, or after a statement): no expression spans it,
// so no text the extractor copies (an unresolved tool's expression, say)
// holds it. A comment inside brackets may be inside such text.
func betweenStatements(c *sitter.Node) bool {
	p := c.Parent()
	return p != nil && isContainer(p.Type())
}

// smallestCovering is the smallest node (named or not: comments are
// extras) that holds the bytes [start, end), or nil.
func smallestCovering(n *sitter.Node, start, end int) *sitter.Node {
	if n == nil || int(n.StartByte()) > start || int(n.EndByte()) < end {
		return nil
	}
	for {
		var next *sitter.Node
		for i := 0; i < int(n.ChildCount()); i++ {
			c := n.Child(i)
			if c != nil && int(c.StartByte()) <= start && end <= int(c.EndByte()) && (c.StartByte() != c.EndByte() || start == end) {
				next = c
				break
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}
