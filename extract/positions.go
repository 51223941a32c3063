package extract

import (
	"sort"
	"unicode/utf8"
)

// LineStarts returns the byte offset of each line start, for PointAt.
func LineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// PointAt converts a byte offset into a Point (1-based line, 1-based UTF-16 column).
func PointAt(src []byte, lines []int, off int) Point {
	if off > len(src) {
		off = len(src)
	}
	li := sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
	if li < 0 {
		li = 0
	}
	return Point{Line: int32(li + 1), Col: int32(UTF16Len(src[lines[li]:off]) + 1), Byte: int32(off)}
}

// UTF16Len counts UTF-16 code units in b; invalid bytes count one each, as
// editors display them as one replacement character.
func UTF16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		if b[0] < utf8.RuneSelf {
			// ASCII, the common case: one unit, no decoding (every
			// location of every fact comes through here).
			n++
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 && r != utf8.RuneError {
			n += 2 // a surrogate pair
		} else {
			n++
		}
	}
	return n
}
