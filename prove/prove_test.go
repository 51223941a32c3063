package prove

import (
	"fmt"
	"testing"

	"github.com/acg-dev/acg/extract"
)

func at(file string, line int) Step {
	return Step{Loc: extract.Loc{File: file, Start: extract.Point{Line: int32(line), Col: 1}}}
}

// TestMerge: one flow per source and sink location, the first prover's
// kept, in a stable order whatever the input order.
func TestMerge(t *testing.T) {
	flow := func(tool string, src, sink int) Flow {
		return Flow{Tool: tool, Source: at("a.py", src), Sink: at("a.py", sink)}
	}
	builtin := []Flow{flow("builtin", 5, 9), flow("builtin", 2, 3)}
	codeql := []Flow{flow("codeql", 5, 9), flow("codeql", 5, 10)}
	got := Merge(builtin, codeql)
	want := []string{"builtin 2>3", "builtin 5>9", "codeql 5>10"}
	if len(got) != 3 {
		t.Fatalf("%d flows", len(got))
	}
	for i, fl := range got {
		s := fmt.Sprintf("%s %d>%d", fl.Tool, fl.Source.Loc.Start.Line, fl.Sink.Loc.Start.Line)
		if s != want[i] {
			t.Errorf("flow %d: %s, want %s", i, s, want[i])
		}
	}
	if Merge() != nil || len(Merge(nil, nil)) != 0 {
		t.Error("flows from nothing")
	}
}
