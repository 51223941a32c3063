package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/report"
	"github.com/acg-dev/acg/traces"
)

const tracesAbout = `Reads recorded agent runs (files or directories: OTLP JSON or protobuf,
OpenTelemetry SDK span JSON, OpenAI Agents SDK trace exports, Langfuse
exports, Claude Code hook logs) and reports each dangerous tool sequence a
run walked: an untrusted read, then a private read and an outward action
with no approval between, and the dangerous-chain patterns. With --root
the tools are labelled by the analysis of that tree and each observed
chain names the static finding that predicted it (docs/traces.md).

exit status: 0 no observed chain at or above --fail-on; 1 one is; 2 bad
usage or an unreadable path; 3 none, but some trace input could not be read.`

func tracesCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("traces", "[flags] TRACES ...", tracesAbout, stdout, stderr)
	format := fs.String("format", "text", "output `FORMAT`: text, json, sarif or jsonl (chain events)")
	root := fs.String("root", "", "scan the agent code in `DIR` and link each observed chain to the static finding that predicted it")
	failOn := fs.String("fail-on", "high", "exit 1 when an observed chain is at or above `SEVERITY`: critical, high, medium, low, none")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "acg traces: want at least one trace file or directory\nrun 'acg traces --help' for usage\n")
		return exitUsage
	}
	threshold := 0
	if *failOn != "none" {
		s, ok := policy.ParseSeverity(*failOn)
		if !ok {
			fmt.Fprintf(stderr, "acg traces: --fail-on %q: want critical, high, medium, low or none\n", *failOn)
			return exitUsage
		}
		threshold = s.Rank()
	}
	switch *format {
	case "text", "json", "sarif", "jsonl":
	default:
		fmt.Fprintf(stderr, "acg traces: --format %q: want text, json, sarif or jsonl\n", *format)
		return exitUsage
	}
	set, err := traces.Read(paths...)
	if err != nil {
		fmt.Fprintf(stderr, "acg traces: %s\n", errorText(err))
		return exitUsage
	}
	opts := traces.Options{Now: now}
	if *root != "" {
		st, err := staticOf(*root)
		if err != nil {
			fmt.Fprintf(stderr, "acg traces: --root %s: %s\n", *root, errorText(err))
			return exitUsage
		}
		opts.Static = st
	}
	res := traces.Analyze(set, opts)
	for _, p := range res.Problems {
		printf(stderr, "acg traces: %s\n", p)
	}
	switch *format {
	case "json":
		err = traces.JSON(stdout, res)
	case "jsonl":
		err = traces.JSONL(stdout, res)
	case "sarif":
		abs, _ := filepath.Abs(".")
		err = traces.SARIF(stdout, res, report.Options{ToolVersion: version, Now: now, Root: abs})
	default:
		err = traces.Text(stdout, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "acg traces: write output: %v\n", err)
		return exitUsage
	}
	for _, f := range res.Findings {
		if threshold > 0 && f.Severity.Rank() >= threshold {
			return exitFindings
		}
	}
	if threshold > 0 && len(res.Problems) > 0 {
		return exitIncomplete
	}
	return exitOK
}

// staticOf scans a tree as acg scan does (same config, same ids).
func staticOf(root string) (*traces.Static, error) {
	// The whole root, as acg scan --root DIR reads it: the same relative
	// paths, so the same finding ids.
	snap, _, err := incremental.Load(context.Background(), root, nil)
	if err != nil {
		return nil, err
	}
	if snap, _, err = withConfig(snap, root, "", nil); err != nil {
		return nil, err
	}
	res := snap.Analyze()
	return &traces.Static{Graph: res.Graph, Findings: append(append([]*policy.Finding(nil), res.Findings...), res.Suppressed...)}, nil
}
