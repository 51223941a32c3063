// Package fuzzseed writes fuzz seed corpora in the `go test fuzz v1`
// format, so that seeds drawn from testdata are checked in under a
// package's testdata/fuzz/FuzzXxx and plain `go test` runs them.
package fuzzseed

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Encode is one corpus file holding the fuzz arguments, in order.
func Encode(vals ...any) string {
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, v := range vals {
		switch v := v.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case string:
			fmt.Fprintf(&b, "string(%q)\n", v)
		case int:
			fmt.Fprintf(&b, "int(%d)\n", v)
		default:
			panic(fmt.Sprintf("fuzzseed: no encoding for %T", v))
		}
	}
	return b.String()
}

// Write replaces the corpus of target under dir (a package's testdata)
// with the given files, named by their keys.
func Write(dir, target string, files map[string]string) error {
	d := filepath.Join(dir, "fuzz", target)
	if err := os.RemoveAll(d); err != nil {
		return err
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Name turns a slash path into a corpus file name.
func Name(rel string) string { return strings.ReplaceAll(rel, "/", "__") }

// Wanted says whether this run should rewrite corpora
// (ACG_WRITE_FUZZ_SEEDS=1).
func Wanted() bool { return os.Getenv("ACG_WRITE_FUZZ_SEEDS") != "" }
