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
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "scan root")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: acg explain [--root DIR] TOOL\n\nShows each effect label of the tools whose name or id contains TOOL, how it was decided and the evidence.\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	snap, warns, err := incremental.Load(context.Background(), *root, nil)
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
