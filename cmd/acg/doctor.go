package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/prove/provers"
)

func doctor(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("doctor", "[flags]", "Shows which flow provers are available, and their versions.", stdout, stderr)
	var tools provers.Settings
	fs.StringVar(&tools.Opengrep, "opengrep", "", "path of the opengrep binary (default: $ACG_OPENGREP, else PATH)")
	fs.StringVar(&tools.CodeQL, "codeql", "", "path of the codeql binary (default: $ACG_CODEQL, else PATH)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	// Paths set in the current directory's .acg.yaml count, as in a scan.
	if src, err := os.ReadFile(config.FileName); err == nil {
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
