package builtin

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract/python"
)

// benchSource is a ~2,000-line agent module: the inbox tools and the
// LangGraph pipeline repeated with fresh names, plus helpers calling each
// other, so summaries and chains have work to do.
func benchSource(b *testing.B) []byte {
	b.Helper()
	tools, err := os.ReadFile("../../testdata/inbox/tools.py")
	if err != nil {
		b.Fatal(err)
	}
	graph, err := os.ReadFile("../../testdata/langgraph-state/graph.py")
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("import email, imaplib, os, subprocess\nfrom pathlib import Path\nimport requests\nfrom langchain_core.tools import tool\n")
	body := func(src []byte) string {
		var keep []string
		for _, l := range strings.Split(string(src), "\n") {
			if !strings.HasPrefix(l, "import ") && !strings.HasPrefix(l, "from ") && !strings.HasPrefix(l, "builder") && !strings.HasPrefix(l, "pipeline") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	t, g := body(tools), body(graph)
	for i := 0; strings.Count(sb.String(), "\n") < 2000; i++ {
		r := strings.NewReplacer("read_email", fmt.Sprintf("read_email_%d", i), "send_http", fmt.Sprintf("send_http_%d", i),
			"read_notes", fmt.Sprintf("read_notes_%d", i), "def fetch", fmt.Sprintf("def fetch_%d", i), "def run", fmt.Sprintf("def run_%d", i),
			"def report", fmt.Sprintf("def report_%d", i), "class State", fmt.Sprintf("class State%d", i))
		sb.WriteString(r.Replace(t))
		sb.WriteString(r.Replace(g))
		fmt.Fprintf(&sb, "\n\ndef relay_%d(folder):\n    text = read_email_%d(folder)\n    return send_http_%d(\"https://hooks.example.com\", text)\n", i, i, i)
	}
	return []byte(sb.String())
}

func lines(src []byte) float64 { return float64(strings.Count(string(src), "\n")) }

// BenchmarkParse is the baseline: a full tree-sitter parse of the file.
func BenchmarkParse(b *testing.B) {
	src := benchSource(b)
	for b.Loop() {
		t, err := python.Parse(context.Background(), src, nil)
		if err != nil {
			b.Fatal(err)
		}
		t.Close()
	}
	b.ReportMetric(lines(src), "lines")
}

// BenchmarkExtract is extract's walk (the facts the prover builds on).
func BenchmarkExtract(b *testing.B) {
	src := benchSource(b)
	t, _ := python.Parse(context.Background(), src, nil)
	for b.Loop() {
		python.Extract("bench.py", src, t)
	}
}

// BenchmarkProve is the builtin prover on extracted facts, with the SARIF
// round trip it always takes.
func BenchmarkProve(b *testing.B) {
	src := benchSource(b)
	t, _ := python.Parse(context.Background(), src, nil)
	f := python.Extract("bench.py", src, t)
	n := 0
	for b.Loop() {
		n = len(Prove(f, src, ""))
	}
	b.ReportMetric(float64(n), "flows")
}

// BenchmarkPaths is the prover without the SARIF round trip.
func BenchmarkPaths(b *testing.B) {
	src := benchSource(b)
	t, _ := python.Parse(context.Background(), src, nil)
	f := python.Extract("bench.py", src, t)
	for b.Loop() {
		Paths(f)
	}
}
