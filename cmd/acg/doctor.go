package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove/provers"
)

func doctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tools provers.Settings
	fs.StringVar(&tools.Opengrep, "opengrep", "", "path of the opengrep binary (default: $ACG_OPENGREP, else PATH)")
	fs.StringVar(&tools.CodeQL, "codeql", "", "path of the codeql binary (default: $ACG_CODEQL, else PATH)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: acg doctor [flags]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	// Paths set in the current directory's .acg.yaml count, as in a scan;
	// it is read as a scan reads it, never through a link.
	src, why, err := incremental.ReadInRoot(".", config.FileName)
	var le *incremental.LinkError
	switch {
	case errors.As(err, &le):
		fmt.Fprintf(stderr, "acg: warning: %s\n", le.Warning(config.FileName))
	case why != "":
		fmt.Fprintf(stderr, "acg: warning: %s: %s\n", config.FileName, why)
	}
	if err == nil && src != nil {
		cfg, err := config.Parse(config.FileName, src)
		if err != nil {
			fmt.Fprintf(stderr, "acg doctor: %v\n", err)
			return exitUsage
		}
		tools = tools.FromConfig(cfg, ".")
	}
	provers.Doctor(context.Background(), tools, version, stdout)
	return exitOK
}
