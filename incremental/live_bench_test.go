package incremental_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// The cost of one edit of the 2,000-line agent module in a 200-file
// workspace, split into its parts. Compare BenchmarkAnalyzeCold (what a
// whole-workspace analysis costs) with BenchmarkAnalyzeEdit (the
// Analyzer rebuilding only the groups the edit reaches).

func benchSetup(b *testing.B) (*incremental.Workspace, string, int) {
	b.Helper()
	dir := b.TempDir()
	rel, err := lsptest.GenWorkspace(dir, 200, 2000)
	if err != nil {
		b.Fatal(err)
	}
	ws := incremental.NewWorkspace(dir, func(m string) { b.Log(m) })
	if _, err := ws.Load(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	src := ws.Snapshot().File(rel).Src
	if _, err := ws.Open(context.Background(), rel, 1, src); err != nil {
		b.Fatal(err)
	}
	if _, err := ws.Analyze(context.Background(), ws.Snapshot(), nil); err != nil {
		b.Fatal(err)
	}
	return ws, rel, bytes.Index(src, []byte("Scale every item"))
}

func edit(i, at int) []incremental.Edit {
	if i%2 == 0 {
		return []incremental.Edit{{Start: at, End: at, Text: []byte("x")}}
	}
	return []incremental.Edit{{Start: at, End: at + 1}}
}

// BenchmarkChange: apply a one-character edit, re-parse incrementally,
// re-extract the file.
func BenchmarkChange(b *testing.B) {
	ws, rel, at := benchSetup(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := ws.Change(context.Background(), rel, int32(i+2), edit(i, at)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeEdit: the incremental analysis after such an edit.
func BenchmarkAnalyzeEdit(b *testing.B) {
	ws, rel, at := benchSetup(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, _, _ := ws.Change(context.Background(), rel, int32(i+2), edit(i, at))
		b.StartTimer()
		if _, err := ws.Analyze(context.Background(), s, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeCold: the whole-workspace analysis `acg scan` does.
func BenchmarkAnalyzeCold(b *testing.B) {
	ws, rel, at := benchSetup(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, _, _ := ws.Change(context.Background(), rel, int32(i+2), edit(i, at))
		b.StartTimer()
		s.Analyze()
	}
}
