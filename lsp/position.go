package lsp

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Positions. The analysis keeps byte offsets (extract.Point.Byte); the
// protocol speaks (line, character) where character counts UTF-16 code units
// unless the client and server agreed on UTF-8 bytes. A mapper converts
// between the two for one text, with lines ending at \n, \r\n or \r as the
// specification says. Astral characters (emoji, some CJK) are two UTF-16
// units; bytes that are not UTF-8 count one unit each.

type encoding uint8

const (
	utf16 encoding = iota
	utf8Enc
)

func (e encoding) kind() protocol.PositionEncodingKind {
	if e == utf8Enc {
		return protocol.PositionEncodingKindUTF8
	}
	return protocol.PositionEncodingKindUTF16
}

// mapper converts positions in one text.
type mapper struct {
	text  []byte
	lines []int // byte offset where each line starts
	enc   encoding
}

func newMapper(text []byte, enc encoding) *mapper {
	m := &mapper{text: text, lines: []int{0}, enc: enc}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			m.lines = append(m.lines, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// lineEnd is the end of line i's content, before its terminator.
func (m *mapper) lineEnd(i int) int {
	if i+1 >= len(m.lines) {
		return len(m.text)
	}
	e := m.lines[i+1] - 1
	if e > m.lines[i] && m.text[e] == '\n' && m.text[e-1] == '\r' {
		e--
	}
	return e
}

// position converts a byte offset. An offset inside a line terminator or
// inside a character maps to the end of the line or the start of the
// character.
func (m *mapper) position(off int) protocol.Position {
	if off > len(m.text) {
		off = len(m.text)
	}
	if off < 0 {
		off = 0
	}
	line := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > off }) - 1
	if e := m.lineEnd(line); off > e {
		off = e
	}
	return protocol.Position{Line: uint32(line), Character: uint32(m.units(m.text[m.lines[line]:off]))}
}

// units counts the characters of b in the mapper's encoding.
func (m *mapper) units(b []byte) int {
	if m.enc == utf8Enc {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}

// offset converts a position. A line past the end is the end of the text;
// a character past the end of its line is the end of the line; one inside a
// character (half a surrogate pair, the middle of a UTF-8 sequence) is the
// start of that character.
func (m *mapper) offset(p protocol.Position) int {
	if int(p.Line) >= len(m.lines) {
		return len(m.text)
	}
	off, end := m.lines[p.Line], m.lineEnd(int(p.Line))
	want := int(p.Character)
	for n := 0; off < end; {
		r, size := utf8.DecodeRune(m.text[off:end])
		w := 1
		switch {
		case m.enc == utf8Enc:
			w = size
		case r >= 0x10000:
			w = 2
		}
		if n+w > want {
			break
		}
		n += w
		off += size
		if n == want {
			break
		}
	}
	return off
}

func (m *mapper) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: m.position(start), End: m.position(end)}
}

func posString(p protocol.Position) string { return fmt.Sprintf("%d:%d", p.Line+1, p.Character+1) }

// offsetUTF16 converts a line and column counted in UTF-16 units (0-based),
// as extract's columns are, whatever the client's encoding.
func (m *mapper) offsetUTF16(line, col int) int {
	u := *m
	u.enc = utf16
	return u.offset(protocol.Position{Line: uint32(line), Character: uint32(col)})
}
