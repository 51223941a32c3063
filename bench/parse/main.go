// Command parse reads and parses every Python file under DIR with
// tree-sitter and nothing else: the floor a cold `acg scan` of DIR is
// compared with (scripts/bench.sh, issue 12 §5: a cold scan within 2× a
// bare parse of the same files).
//
//	go run ./bench/parse DIR
package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/acg-dev/acg/extract/python"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: parse DIR")
		os.Exit(2)
	}
	files, lines := 0, 0
	err := filepath.WalkDir(os.Args[1], func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		t, err := python.Parse(context.Background(), src, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		t.Close()
		files++
		lines += strings.Count(string(src), "\n")
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "parse:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d lines\n", files, lines)
}
