package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/report"
)

// explain prints the evidence behind every label of the tools matching a
// name.
func explain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain", "[--root DIR] TOOL",
		"Shows each effect label of the tools whose name or id contains TOOL, how it\nwas decided and the evidence.", stdout, stderr)
	root := fs.String("root", "", "analyse `DIR` (default: the current directory, with paths relative to the checkout as in acg scan)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "acg explain: want one TOOL, got %d arguments\nrun 'acg explain --help' for usage\n", fs.NArg())
		return exitUsage
	}
	r, paths := *root, []string(nil)
	if r == "" {
		top, err := scanRoot("", []string{"."})
		if err != nil {
			fmt.Fprintf(stderr, "acg explain: %v\n", err)
			return exitUsage
		}
		r, paths = top, []string{"."}
	}
	snap, warns, err := incremental.Load(context.Background(), r, paths)
	if err != nil {
		fmt.Fprintf(stderr, "acg explain: %s\n", errorText(err))
		return exitUsage
	}
	for _, w := range warns {
		printf(stderr, "acg: warning: %s\n", w)
	}
	n, err := report.Explain(stdout, snap.Analyze().Graph, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "acg explain: %s\n", errorText(err))
		return exitUsage
	}
	if n == 0 {
		fmt.Fprintf(stderr, "acg explain: no tool matches %q\n", fs.Arg(0))
		return exitFindings
	}
	return exitOK
}
