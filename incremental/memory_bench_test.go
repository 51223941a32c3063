package incremental_test

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/gentree"
)

// BenchmarkLoadMemory measures what a loaded snapshot of 2,000 generated
// files keeps alive: the Go heap after a collection (facts, sources) and
// the process's resident set (which also counts tree-sitter's C memory,
// invisible to the Go heap). acg scan's RSS for 10,000 files is measured
// with /usr/bin/time (docs/performance.md); this is the same cost per file,
// small enough to run in a benchmark.
func BenchmarkLoadMemory(b *testing.B) {
	const files = 2000
	root := b.TempDir()
	if _, err := gentree.Write(root, files); err != nil {
		b.Fatal(err)
	}
	var heap, rss float64
	for i := 0; i < b.N; i++ {
		s, _, err := incremental.Load(context.Background(), root, nil)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.GC() // finalizers of dropped trees ran after the first
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap, rss = float64(ms.HeapInuse)/(1<<20), rssMB(b)
		loaded = s
	}
	b.ReportMetric(heap, "heap-MB")
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(heap*1024/files, "heap-KB/file")
}

// loaded keeps the last snapshot alive after the benchmark, so that
// -memprofile shows what it holds.
var loaded *incremental.Snapshot

// rssMB is the resident set of this process now (VmRSS), in MB.
func rssMB(b *testing.B) float64 {
	st, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc/self/status: %v", err)
	}
	for _, l := range bytes.Split(st, []byte("\n")) {
		if f := bytes.Fields(l); len(f) == 3 && string(f[0]) == "VmRSS:" {
			kb, _ := strconv.ParseFloat(string(f[1]), 64)
			return kb / 1024
		}
	}
	b.Skip("no VmRSS")
	return 0
}
