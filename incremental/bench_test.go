package incremental

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract/python"
	"github.com/acg-dev/acg/internal/gentree"
)

// Cold scans: discover, read, parse, extract, resolve, label, build the
// graph and run every check. BenchmarkParseOnly parses the same files
// with tree-sitter and nothing else, for the ratio.

func BenchmarkColdScanTestdata(b *testing.B) { benchScan(b, "../testdata") }

func BenchmarkColdScanGenerated200(b *testing.B) {
	root := b.TempDir()
	if _, err := gentree.Write(root, 200); err != nil {
		b.Fatal(err)
	}
	benchScan(b, root)
}

func BenchmarkParseOnlyTestdata(b *testing.B) { benchParse(b, "../testdata") }

func BenchmarkParseOnlyGenerated200(b *testing.B) {
	root := b.TempDir()
	if _, err := gentree.Write(root, 200); err != nil {
		b.Fatal(err)
	}
	benchParse(b, root)
}

func pySources(b *testing.B, root string) ([][]byte, int) {
	var srcs [][]byte
	lines := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		srcs = append(srcs, src)
		lines += strings.Count(string(src), "\n")
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return srcs, lines
}

func benchScan(b *testing.B, root string) {
	srcs, lines := pySources(b, root)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, _, err := Load(context.Background(), root, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Analyze()
	}
	report(b, len(srcs), lines)
}

func benchParse(b *testing.B, root string) {
	srcs, lines := pySources(b, root)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			t, err := python.Parse(context.Background(), src, nil)
			if err != nil {
				b.Fatal(err)
			}
			t.Close()
		}
	}
	report(b, len(srcs), lines)
}

func report(b *testing.B, files, lines int) {
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(files)/sec, "files/s")
	b.ReportMetric(float64(lines)/sec, "lines/s")
}
