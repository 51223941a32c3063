package poison

import (
	"testing"
	"unicode/utf8"
)

// FuzzScan: any text scans without panicking, and every hit is a
// non-empty range inside the text, on rune boundaries, in order.
func FuzzScan(f *testing.F) {
	for _, c := range labelled {
		f.Add(c.text)
	}
	f.Add("<!-- unterminated")
	f.Add("\xff\xfe\u200b")
	f.Fuzz(func(t *testing.T, text string) {
		prev := -1
		for _, h := range Scan(text) {
			if h.Start < 0 || h.End > len(text) || h.Start >= h.End {
				t.Fatalf("bad range %+v in %d bytes", h, len(text))
			}
			if utf8.ValidString(text) && (!utf8.RuneStart(text[h.Start]) || h.End < len(text) && !utf8.RuneStart(text[h.End])) {
				t.Fatalf("range %+v splits a rune", h)
			}
			if h.Start < prev {
				t.Fatalf("hits out of order")
			}
			prev = h.Start
			if h.Rule == "" || h.Why == "" {
				t.Fatalf("hit without rule or reason: %+v", h)
			}
		}
	})
}
