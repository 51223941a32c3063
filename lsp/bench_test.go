package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
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
// character typed, then deleted again, in the middle of the 2,000-line agent
// module) to the publishDiagnostics for that version, with the debounce set
// to 0 so that the figure is the server's own work. It reports the median
// and p95 of three kinds of keystroke:
//
//   - comment: typed into a comment line of a helper. The server re-parses
//     incrementally, sees the edit stays inside the comment and republishes
//     its last analysis with the offsets moved (incremental.Shift): no
//     extraction, no analysis.
//   - docstring: typed into a helper's docstring: the file is extracted
//     again, its group rebuilt, the checks run.
//   - tool-fact: a digit typed into a call argument in a tool's body
//     (json.dumps({"n": 57})): the tool's facts change; the same work.
func BenchmarkDidChangeToPublish(b *testing.B) {
	for _, c := range []struct {
		name, marker string
		at           int // where in the marker the character goes
	}{
		{"comment", "# scale each item", 10},
		{"docstring", "Scale every item", 10},
		{"tool-fact", `"n": `, 5},
	} {
		b.Run(c.name, func(b *testing.B) { benchKeystroke(b, c.marker, c.at) })
	}
}

func benchKeystroke(b *testing.B, marker string, in int) {
	dir, rel := benchWorkspace(b)
	// One helper in three gets a comment line under its docstring.
	full := filepath.Join(dir, filepath.FromSlash(rel))
	src, err := os.ReadFile(full)
	if err != nil {
		b.Fatal(err)
	}
	doc := `    """Scale every item; a plain helper, not a tool."""` + "\n"
	parts := strings.Split(string(src), doc)
	for i := 1; i < len(parts); i += 3 {
		parts[i] = "    # scale each item\n" + parts[i]
	}
	if err := os.WriteFile(full, []byte(strings.Join(parts, doc)), 0o644); err != nil {
		b.Fatal(err)
	}
	c := lsptest.Start(b, dir, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 0}, Timeout: time.Minute})
	c.Initialize()
	c.Open(rel)
	c.WaitDiags(rel, version(1))
	text := c.Text(rel)
	at := middle(text, marker)
	if at < 0 {
		b.Fatalf("no %q to edit", marker)
	}
	at += in
	pos := lsptest.PositionOf(text, at)
	var lat []time.Duration
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var ch protocol.TextDocumentContentChangeEvent
		if i%2 == 0 {
			ch = lsptest.Edit(protocol.Range{Start: pos, End: pos}, "7")
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
	// CPU time per keystroke (the whole process, client included): on a
	// shared machine the wall-clock figures include waiting for a core.
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	reportLatency(b, lat)
}

// cpuTime is the user and system time this process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// middle is the offset of the occurrence of s nearest the middle of text
// (-1 if none).
func middle(text, s string) int {
	best := -1
	for off := 0; ; {
		i := strings.Index(text[off:], s)
		if i < 0 {
			return best
		}
		at := off + i
		if best < 0 || abs(at-len(text)/2) < abs(best-len(text)/2) {
			best = at
		}
		off = at + 1
	}
}

func abs(x int) int { return max(x, -x) }

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

// BenchmarkInitialScanRepo is BenchmarkInitialScan on a real tree:
// ACG_BENCH_REPO names its directory (a checkout of
// openai/openai-agents-python, 920 Python files, for docs/performance.md).
// It measures initialize until the first publication of diagnostics.
func BenchmarkInitialScanRepo(b *testing.B) {
	dir := os.Getenv("ACG_BENCH_REPO")
	if dir == "" {
		b.Skip("ACG_BENCH_REPO is not set: no repository to scan")
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		c := lsptest.Start(b, dir, lsptest.Options{Caps: lsptest.RichCaps(), Server: lsp.Options{NoWatch: true}, Timeout: 5 * time.Minute})
		c.Initialize()
		c.Wait("the first diagnostics", func() bool { return len(c.Diags) > 0 })
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
