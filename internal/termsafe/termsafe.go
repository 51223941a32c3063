// Package termsafe makes text that came from a scanned repository safe to
// show on a terminal, in a CI log or in an editor: nothing in it can move
// the cursor, erase or recolour a line, set a window title, or reorder
// what is shown (Trojan Source). Every place acg prints a string read from
// a scanned file (names, paths, messages built from them) passes it
// through String at the moment it is written; the data itself (JSON,
// SARIF, the graph) keeps the exact value, and JSON keeps it exactly while
// escaping what a terminal would act on.
package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unsafe reports whether a terminal or a text view would act on r rather
// than show it: C0 controls (newline and tab included, so a name cannot
// split a line), DEL, C1 controls, format characters (the bidi embeddings,
// overrides and isolates U+202A–U+202E and U+2066–U+2069, marks, zero-width
// characters, the BOM) and the line and paragraph separators.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Safe reports whether String would return s unchanged.
func Safe(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || Unsafe(r) {
			return false
		}
		i += n
	}
	return true
}

// String returns s with every unsafe rune written as a visible escape:
// \n, \r and \t; \xNN for the other C0 controls, DEL and each byte that is
// not UTF-8; \u009b for C1 and \u202e for format characters (\U000e0001
// beyond the BMP). Safe text comes back unchanged. The result is valid
// UTF-8 and holds no unsafe rune.
func String(s string) string {
	if Safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Strings applies String to each element, in a new slice.
func Strings(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = String(x)
	}
	return out
}

// Sprintf formats like fmt.Sprintf with every string, error and
// fmt.Stringer argument made safe first, so a message built around a
// scanned name keeps its own layout (the format's newlines) while the
// name cannot add any. With %q and %x an argument is formatted from its
// original value: Go's quoting already escapes what is unsafe.
func Sprintf(format string, args ...any) string {
	safe := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			safe[i] = arg(v)
		case error:
			safe[i] = arg(v.Error())
		case fmt.Stringer:
			safe[i] = arg(v.String())
		case []string:
			safe[i] = Strings(v)
		default:
			safe[i] = a
		}
	}
	return fmt.Sprintf(format, safe...)
}

// arg is a string argument of Sprintf.
type arg string

func (a arg) Format(f fmt.State, verb rune) {
	switch verb {
	case 'q', 'x', 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), string(a))
	default:
		fmt.Fprintf(f, fmt.FormatString(f, verb), String(string(a)))
	}
}

// JSON rewrites, in JSON text produced by encoding/json, each unsafe rune
// the encoder leaves raw (DEL, C1 controls, format characters) as a \u
// escape (a surrogate pair beyond the BMP). The encoder already escapes
// C0 controls and the line and paragraph separators and replaces bytes
// that are not UTF-8, and outside strings it writes only ASCII, so every
// such rune stands inside a string and the escape decodes to the same
// value: the data stays exact and a terminal showing it acts on nothing.
func JSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf && b[i] != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || !Unsafe(r) {
			i += n
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+32)
		}
		out = append(out, b[last:i]...)
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
		last = i
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
