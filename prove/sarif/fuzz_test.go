package sarif

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the reader: it must return an error or
// flows whose every step is a positive position in a file inside the root.
//
//	go test ./prove/sarif -run '^$' -fuzz FuzzRead -fuzztime 10m -parallel 1
func FuzzRead(f *testing.F) {
	entries, _ := os.ReadDir(samples)
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(samples, e.Name())); err == nil && e.Name() != "README.md" {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{},"codeFlows":[{"threadFlows":[{"locations":[{"location":{"physicalLocation":{"artifactLocation":{"uri":"../a"},"region":{"startLine":1}}}}]}]}]}]}]}`))
	src := []byte("def f(x):\n    return x\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Read(data, Options{Root: "/ws", Source: func(string) []byte { return src }})
		if err != nil {
			return
		}
		for _, fl := range res.Flows {
			if len(fl.Steps) == 0 {
				t.Fatal("flow without steps")
			}
			for _, s := range fl.Steps {
				l := s.Loc
				if l.File == "" || strings.HasPrefix(l.File, "/") || l.File == ".." || strings.HasPrefix(l.File, "../") {
					t.Fatalf("file %q escapes the root", l.File)
				}
				if l.Start.Line < 1 || l.Start.Col < 1 || l.End.Line < l.Start.Line {
					t.Fatalf("bad position %+v", l)
				}
			}
		}
	})
}
