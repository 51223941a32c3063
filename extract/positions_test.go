package extract

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF16Len's ASCII fast path agrees with encoding rune by rune (invalid
// bytes one unit each, astral runes two).
func TestUTF16Len(t *testing.T) {
	ref := func(b []byte) int {
		n := 0
		for len(b) > 0 {
			r, size := utf8.DecodeRune(b)
			b = b[size:]
			if r == utf8.RuneError {
				n++
				continue
			}
			n += len(utf16.Encode([]rune{r}))
		}
		return n
	}
	for _, s := range []string{"", "abc", "é", "naïve x", "日本語", "a😀b", "😀😀", "\xff\xfe", "a\xe2\x82", "\U0010FFFF"} {
		if got, want := UTF16Len([]byte(s)), ref([]byte(s)); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}
