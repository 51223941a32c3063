package sarif

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
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
// flows whose every step is a positive, ordered position in a clean
// root-relative path of a file inside the root, with a byte offset inside
// the file or none, and whose source and sink are steps of the path.
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
			checkFlow(t, fl, len(src))
		}
	})
}

// checkFlow is what every consumer of a flow relies on (the checks, the
// outputs, the language server's related information).
func checkFlow(t *testing.T, fl prove.Flow, srcLen int) {
	t.Helper()
	if len(fl.Steps) == 0 {
		t.Fatal("flow without steps")
	}
	var src, sink bool
	for _, s := range fl.Steps {
		l := s.Loc
		if l.File == "" || path.IsAbs(l.File) || l.File == ".." || strings.HasPrefix(l.File, "../") ||
			path.Clean(l.File) != l.File || strings.Contains(l.File, "\\") || hasDrive(l.File) {
			t.Fatalf("file %q is not a clean path inside the root", l.File)
		}
		if l.Start.Line < 1 || l.Start.Col < 1 || l.End.Line < l.Start.Line ||
			(l.End.Line == l.Start.Line && l.End.Col < l.Start.Col) {
			t.Fatalf("bad position %+v", l)
		}
		for _, p := range []extract.Point{l.Start, l.End} {
			if p.Byte < -1 || int(p.Byte) > srcLen {
				t.Fatalf("byte offset %d outside a %d-byte file", p.Byte, srcLen)
			}
		}
		if l.Start.Byte >= 0 && l.End.Byte >= 0 && l.End.Byte < l.Start.Byte {
			t.Fatalf("end offset %d before start %d", l.End.Byte, l.Start.Byte)
		}
		switch s.Role {
		case prove.RoleSource, prove.RoleSink, prove.RoleStep, prove.RoleCall:
		default:
			t.Fatalf("step role %q", s.Role)
		}
		src = src || reflect.DeepEqual(s, fl.Source)
		sink = sink || reflect.DeepEqual(s, fl.Sink)
	}
	if !src || !sink || fl.Source.Role != prove.RoleSource || fl.Sink.Role != prove.RoleSink {
		t.Fatalf("source %+v or sink %+v is not a step of the path", fl.Source, fl.Sink)
	}
}
