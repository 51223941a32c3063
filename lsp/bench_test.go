package lsp_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// The benchmark workspace: 200 Python files, one of them a 2,000-line agent
// module (lsptest.GenWorkspace).
const benchFiles, benchLines = 200, 2000

func benchWorkspace(b *testing.B) (string, string) {
	b.Helper()
	dir := b.TempDir()
	rel, err := lsptest.GenWorkspace(dir, benchFiles, benchLines)
	if err != nil {
		b.Fatal(err)
	}
	return dir, rel
}

// BenchmarkDidChangeToPublish measures the time from a didChange (one
// character typed in a function of the 2,000-line agent module) to the
// publishDiagnostics for that version, with the debounce set to 0 so that
// the figure is the server's own work: incremental re-parse, extraction of
// the file, the rebuild of the groups the change reaches, the checks, the
// conversion and the write. It reports the median and p95.
func BenchmarkDidChangeToPublish(b *testing.B) {
	dir, rel := benchWorkspace(b)
	c := lsptest.Start(b, dir, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 0}, Timeout: time.Minute})
	c.Initialize()
	c.Open(rel)
	c.WaitDiags(rel, version(1))
	text := c.Text(rel)
	at := strings.Index(text, "Scale every item") // inside a helper's docstring, mid-file
	if at < 0 {
		b.Fatal("no edit point")
	}
	pos := lsptest.PositionOf(text, at)
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var ch protocol.TextDocumentContentChangeEvent
		if i%2 == 0 {
			ch = lsptest.Edit(protocol.Range{Start: pos, End: pos}, "x")
		} else {
			end := pos
			end.Character++
			ch = lsptest.Edit(protocol.Range{Start: pos, End: end}, "")
		}
		t0 := time.Now()
		v := c.Change(rel, ch)
		c.WaitDiags(rel, version(v))
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkInitialScan measures a server's first scan of the workspace:
// initialize until the diagnostics of the 2,000-line module are published
// (every file read, parsed and extracted, every group built, all checks).
func BenchmarkInitialScan(b *testing.B) {
	dir, rel := benchWorkspace(b)
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		c := lsptest.Start(b, dir, lsptest.Options{Caps: lsptest.RichCaps(), Server: lsp.Options{NoWatch: true}, Timeout: time.Minute})
		c.Initialize()
		c.WaitDiags(rel, hasDiags)
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		c.Shutdown()
		b.StartTimer()
	}
	b.StopTimer()
	reportLatency(b, lat)
}

func reportLatency(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
	b.ReportMetric(ms(lat[(len(lat)*95+99)/100-1]), "p95-ms")
	if testing.Verbose() {
		fmt.Printf("%s: n=%d median %.1fms p95 %.1fms max %.1fms\n", b.Name(), len(lat), ms(lat[len(lat)/2]), ms(lat[(len(lat)*95+99)/100-1]), ms(lat[len(lat)-1]))
	}
}
