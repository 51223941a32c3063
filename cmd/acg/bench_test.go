package main

import (
	"context"
	"io"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/gentree"
	"github.com/acg-dev/acg/report"
)

// BenchmarkFormats writes each batch format of a generated 200-file tree,
// to compare with the analysis itself (BenchmarkColdScanGenerated200 in
// package incremental).
func BenchmarkFormats(b *testing.B) {
	root := b.TempDir()
	if _, err := gentree.Write(root, 200); err != nil {
		b.Fatal(err)
	}
	snap, _, err := incremental.Load(context.Background(), root, nil)
	if err != nil {
		b.Fatal(err)
	}
	res := snap.Analyze()
	doc := report.NewDocument(res.Graph, res.Findings)
	doc.Suppressed = res.Suppressed
	opts := report.Options{ToolVersion: "bench"}
	for name, w := range map[string]func(io.Writer) error{
		"json":  func(w io.Writer) error { return report.JSON(w, doc) },
		"text":  func(w io.Writer) error { return report.Text(w, doc, opts) },
		"sarif": func(w io.Writer) error { return report.SARIF(w, doc, opts) },
		"jsonl": func(w io.Writer) error { return report.JSONL(w, doc, opts) },
		"graph": func(w io.Writer) error { return report.Graph(w, doc) },
		"svg":   func(w io.Writer) error { return report.SVG(w, doc) },
		"cedar": func(w io.Writer) error { return report.Cedar(w, doc) },
	} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := w(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Logf("%d agents, %d tools, %d findings", len(doc.Agents), len(doc.Tools), len(doc.Findings))
}
