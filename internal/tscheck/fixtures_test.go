package tscheck_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acg-dev/acg/internal/tscheck"
)

// TestFixturesTypeCheck: every TypeScript fixture under testdata compiles
// with tsc --strict against the real, pinned framework packages. A fixture
// that calls an API a framework does not have (or with arguments it does
// not take) is a bug in the fixture (issue 15).
func TestFixturesTypeCheck(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	npm, err := tscheck.Install(ctx, root)
	if errors.Is(err, tscheck.ErrNoNode) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	testdata := filepath.Join(root, "testdata")
	files, err := tscheck.Fixtures(testdata)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no TypeScript fixture under testdata")
	}
	diags, err := tscheck.Check(ctx, npm, testdata, files)
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string][]string{}
	for _, d := range diags {
		byFile[d.File] = append(byFile[d.File], d.Text)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			for _, m := range byFile[f] {
				t.Error(m)
			}
		})
	}
	// Errors tsc gives on no fixture (a bad option, a missing package).
	for file, ms := range byFile {
		if !contains(files, file) {
			t.Errorf("%s: %s", file, strings.Join(ms, "\n"))
		}
	}
}

// TestCheckFails: the check reports a real type error, so that a clean run
// means something.
func TestCheckFails(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	npm, err := tscheck.Install(ctx, root)
	if errors.Is(err, tscheck.ErrNoNode) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	bad := `import { tool } from "ai";
import { z } from "zod";
// execute's input has no field "missing".
export const t = tool({ description: "x", inputSchema: z.object({ q: z.string() }), runs: true,
  execute: async ({ missing }) => missing });
`
	writeFile(t, filepath.Join(src, "bad", "tool.ts"), bad)
	diags, err := tscheck.Check(ctx, npm, src, []string{"bad/tool.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) == 0 {
		t.Fatal("tsc accepted a tool() call with an unknown option")
	}
	for _, d := range diags {
		t.Logf("%s:%d: %s", d.File, d.Line, d.Text)
		if d.File != "bad/tool.ts" || d.Line == 0 {
			t.Errorf("diagnostic not on the fixture: %+v", d)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
