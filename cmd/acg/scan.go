package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/report"
)

// Exit codes.
const (
	exitOK       = 0 // nothing at or above --fail-on
	exitFindings = 1 // something is
	exitUsage    = 2 // bad usage or an I/O error
)

func scan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	failOn := fs.String("fail-on", "high", "exit 1 when a finding is at or above: critical, high, medium, low, none")
	root := fs.String("root", "", "scan root that paths in the output are relative to (default: the scanned directory, else the current one)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: acg scan [flags] [PATH ...]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	threshold := 0
	if *failOn != "none" {
		s, ok := policy.ParseSeverity(*failOn)
		if !ok {
			fmt.Fprintf(stderr, "acg scan: --fail-on %q: want critical, high, medium, low or none\n", *failOn)
			return exitUsage
		}
		threshold = s.Rank()
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "acg scan: --format %q: want text or json\n", *format)
		return exitUsage
	}
	paths := fs.Args()
	r, err := scanRoot(*root, paths)
	if err != nil {
		fmt.Fprintf(stderr, "acg scan: %v\n", err)
		return exitUsage
	}
	snap, warns, err := incremental.Load(context.Background(), r, paths)
	if err != nil {
		fmt.Fprintf(stderr, "acg scan: %v\n", err)
		return exitUsage
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "acg: warning: %s\n", w)
	}
	res := snap.Analyze()
	doc := report.NewDocument(res.Graph, res.Findings)
	switch *format {
	case "json":
		err = report.JSON(stdout, doc)
	default:
		err = report.Text(stdout, doc)
	}
	if err != nil {
		fmt.Fprintf(stderr, "acg scan: write output: %v\n", err)
		return exitUsage
	}
	for _, f := range res.Findings {
		if threshold > 0 && f.Severity.Rank() >= threshold {
			return exitFindings
		}
	}
	return exitOK
}

// scanRoot picks the root that output paths are relative to.
func scanRoot(flagRoot string, paths []string) (string, error) {
	if flagRoot != "" {
		return flagRoot, nil
	}
	if len(paths) == 1 {
		info, err := os.Stat(paths[0])
		if err != nil {
			return "", err
		}
		if info.IsDir() {
			return paths[0], nil
		}
		return filepath.Dir(paths[0]), nil
	}
	return ".", nil
}
