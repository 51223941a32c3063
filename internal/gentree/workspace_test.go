package gentree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorkspace(t *testing.T) {
	dir := t.TempDir()
	rel, err := Workspace(dir, 200)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".py") {
			n++
		}
		return nil
	})
	b, _ := os.ReadFile(filepath.Join(dir, rel))
	lines := strings.Count(string(b), "\n")
	if n != 200 || lines < 1950 || lines > 2050 {
		t.Fatalf("%d files, big module %d lines", n, lines)
	}
}
