package sarif

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// shrink keeps the first result with a path, without artifacts, rule
// catalogues and run metadata.
func shrink(f *testing.F, data []byte) []byte {
	rep, err := gosarif.FromBytes(data)
	if err != nil {
		f.Fatal(err)
	}
	for _, run := range rep.Runs {
		run.Artifacts, run.Invocations, run.Tool.Extensions = nil, nil, nil
		run.Tool.Driver.Rules = nil
		run.Properties = nil
		for _, r := range run.Results {
			if len(r.CodeFlows) > 0 {
				r.CodeFlows = r.CodeFlows[:1]
				run.Results = []*gosarif.Result{r}
				break
			}
		}
	}
	var buf bytes.Buffer
	if err := rep.Write(&buf); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzRead feeds arbitrary bytes to the reader: it must return an error or
// flows whose every step is a positive position in a file inside the root.
//
//	go test ./prove/sarif -run '^$' -fuzz FuzzRead -fuzztime 10m -parallel 1
func FuzzRead(f *testing.F) {
	// Seeds stay small: the fuzzer minimises every new input byte by byte,
	// which takes minutes on the 200 KB CodeQL logs. Those are cut down to
	// one result each.
	entries, _ := os.ReadDir(samples)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(samples, e.Name()))
		if err != nil || e.Name() == "README.md" {
			continue
		}
		if len(data) > 16<<10 {
			data = shrink(f, data)
		}
		f.Add(data)
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
