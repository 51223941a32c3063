package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/acg-dev/acg/internal/gentree"
)

// Whole-scan benchmarks of the shapes of issue 12, as `acg scan --format
// json` runs them: discover, parse, extract, resolve, label, build the
// graph, run every check and write the JSON. scripts/bench.sh measures the
// same shapes as processes (time and RSS) and compares with ZIRAN.

func BenchmarkScanChain100(b *testing.B)  { benchShape(b, chainShape(100)) }
func BenchmarkScanChain400(b *testing.B)  { benchShape(b, chainShape(400)) }
func BenchmarkScanChain1000(b *testing.B) { benchShape(b, chainShape(1000)) }
func BenchmarkScanChain5000(b *testing.B) { benchShape(b, chainShape(5000)) }

func BenchmarkScanSingle100(b *testing.B)  { benchShape(b, singleShape(100)) }
func BenchmarkScanSingle1000(b *testing.B) { benchShape(b, singleShape(1000)) }

func BenchmarkScanWorkspace200(b *testing.B) {
	benchShape(b, func(dir string) error { _, err := gentree.Workspace(dir, 200); return err })
}

// chainShape: tools tools in tools/5 agents, each handing off to the next.
func chainShape(tools int) func(string) error {
	return func(dir string) error { _, err := gentree.HandoffChain(dir, tools, tools/5); return err }
}

func singleShape(tools int) func(string) error {
	return func(dir string) error { _, err := gentree.SingleAgent(dir, tools); return err }
}

func benchShape(b *testing.B, gen func(string) error) {
	dir := b.TempDir()
	if err := gen(dir); err != nil {
		b.Fatal(err)
	}
	args := []string{"--format", "json", "--fail-on", "none", "--engine", "builtin", "--root", dir, dir}
	var out bytes.Buffer
	if code := scan(args, &out, io.Discard); code != 0 {
		b.Fatalf("exit %d", code)
	}
	var doc struct{ Findings []json.RawMessage }
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := scan(args, io.Discard, io.Discard); code != 0 {
			b.Fatal(fmt.Sprintf("exit %d", code))
		}
	}
	b.ReportMetric(float64(len(doc.Findings)), "findings")
}

// BenchmarkScanRepo scans a checkout of a real repository named by
// ACG_BENCH_REPO (issue 12: openai-agents-python), with every prover the
// machine has, as `acg scan --format json` would.
func BenchmarkScanRepo(b *testing.B) {
	dir := os.Getenv("ACG_BENCH_REPO")
	if dir == "" {
		b.Skip("ACG_BENCH_REPO names no checkout")
	}
	args := []string{"--format", "json", "--fail-on", "none", "--root", dir, dir}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scan(args, io.Discard, io.Discard)
	}
}
