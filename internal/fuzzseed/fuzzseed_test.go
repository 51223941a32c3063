package fuzzseed

import (
	"os"
	"path/filepath"
	"testing"
)

// The encoding is the one `go test` reads: Encode writes exactly the seed
// of FuzzRoundTrip below, which go test parses and runs.
func TestEncode(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzRoundTrip", "seed"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Encode(3, []byte("a\x00\"\xff"), "é\n"); got != string(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, "FuzzX", map[string]string{Name("a/b.py"): Encode([]byte("x"))}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fuzz", "FuzzX", "a__b.py")); err != nil {
		t.Fatal(err)
	}
}

// FuzzRoundTrip runs the seed TestEncode compares with: go test fails on a
// corpus file it cannot parse, and the values must be the encoded ones.
func FuzzRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int, b []byte, s string) {
		if n == 3 && (string(b) != "a\x00\"\xff" || s != "é\n") {
			t.Fatalf("decoded %d %q %q", n, b, s)
		}
	})
}
