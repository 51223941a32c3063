package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/prove/provers"
	"github.com/acg-dev/acg/report"
)

// Exit codes (README "Exit codes").
const (
	exitOK       = 0 // nothing at or above --fail-on
	exitFindings = 1 // something is
	exitUsage    = 2 // bad usage, a bad config or baseline, or an I/O error
)

func scan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text, json, sarif or jsonl (chain events)")
	failOn := fs.String("fail-on", "high", "exit 1 when a finding is at or above: critical, high, medium, low, none")
	root := fs.String("root", "", "scan root that paths in the output are relative to (default: the scanned directory, else the current one)")
	graphOut := fs.String("graph", "", "also write the capability graph as JSON to `FILE`")
	svgOut := fs.String("svg", "", "also write the trust-boundary map as SVG to `FILE`")
	cedarOut := fs.String("cedar", "", "also write Cedar policies forbidding each finding's tool sequence to `FILE`")
	baseline := fs.String("baseline", "", "report only findings whose ids are not in `FILE` (an earlier --format json or sarif output)")
	cfgPath := fs.String("config", "", "read the configuration from `FILE` instead of the scan root's .acg.yaml")
	engine := fs.String("engine", "auto", "flow provers: builtin, opengrep, codeql, or auto (builtin plus whatever is installed)")
	var tools provers.Settings
	fs.StringVar(&tools.Opengrep, "opengrep", "", "path of the opengrep binary (default: $ACG_OPENGREP, else PATH)")
	fs.StringVar(&tools.CodeQL, "codeql", "", "path of the codeql binary (default: $ACG_CODEQL, else PATH)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: acg scan [flags] [PATH ...]\n\nflags:\n")
		fs.PrintDefaults()
	}
	paths, err := parseInterspersed(fs, args)
	if err != nil {
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
	write, ok := formats[*format]
	if !ok {
		fmt.Fprintf(stderr, "acg scan: --format %q: want text, json, sarif or jsonl\n", *format)
		return exitUsage
	}
	if !slices.Contains(provers.Engines, *engine) {
		fmt.Fprintf(stderr, "acg scan: --engine %q: want builtin, opengrep, codeql or auto\n", *engine)
		return exitUsage
	}
	r, err := scanRoot(*root, paths)
	if err != nil {
		return fail(stderr, err)
	}
	var base report.Baseline
	if *baseline != "" {
		if base, err = report.LoadBaseline(*baseline); err != nil {
			return fail(stderr, err)
		}
	}
	prog := report.NewProgress(stderr)
	snap, warns, err := incremental.LoadWithProgress(context.Background(), r, paths, prog.Files)
	if err != nil {
		prog.Stop()
		return fail(stderr, err)
	}
	var cfgWarns []incremental.Warning
	if snap, cfgWarns, err = withConfig(snap, r, *cfgPath); err != nil {
		prog.Stop()
		return fail(stderr, err)
	}
	for _, w := range cfgWarns {
		if !slices.Contains(warns, w) { // the walk may have named the link already
			warns = append(warns, w)
		}
	}
	cfg, _ := snap.Config() // a bad config is reported with the analysis
	sel, err := provers.Select(*engine, tools.FromConfig(cfg, r))
	if err != nil {
		prog.Stop()
		fmt.Fprintf(stderr, "acg scan: --engine %s: %v\n", *engine, err)
		return exitUsage
	}
	prog.Phase("analysing")
	res, proverWarns, err := sel.Analyze(context.Background(), snap)
	prog.Stop()
	if err != nil {
		return fail(stderr, err)
	}
	for _, w := range proverWarns {
		fmt.Fprintf(stderr, "acg: warning: %v (continuing with the other provers)\n", w)
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "acg: warning: %s\n", w)
	}
	if res.ConfigErr != nil {
		fmt.Fprintf(stderr, "acg scan: the configuration is not valid:\n%v\n", res.ConfigErr)
		return exitUsage
	}
	for _, p := range res.Problems {
		fmt.Fprintf(stderr, "acg: %s:%d:%d: %s\n", p.Loc.File, p.Loc.Start.Line, p.Loc.Start.Col, p.Message)
	}
	doc := report.NewDocument(res.Graph, res.Findings)
	doc.Suppressed = res.Suppressed
	if base != nil {
		doc.Findings, doc.Suppressed = base.New(doc.Findings), base.New(doc.Suppressed)
	}
	opts := report.Options{ToolVersion: version, Baseline: base != nil, Color: report.UseColor(stdout), Now: now}
	if err := write(stdout, doc, opts); err != nil {
		return fail(stderr, fmt.Errorf("write output: %w", err))
	}
	for _, side := range []struct {
		path  string
		write func(io.Writer, *report.Document) error
	}{{*graphOut, report.Graph}, {*svgOut, report.SVG}, {*cedarOut, report.Cedar}} {
		if side.path == "" {
			continue
		}
		if err := writeFile(side.path, func(w io.Writer) error { return side.write(w, doc) }); err != nil {
			return fail(stderr, err)
		}
	}
	for _, f := range doc.Findings {
		if threshold > 0 && f.Severity.Rank() >= threshold {
			return exitFindings
		}
	}
	return exitOK
}

// now stamps chain events; tests fix it.
var now = time.Now

type writer = func(io.Writer, *report.Document, report.Options) error

// formats are the --format values.
var formats = map[string]writer{
	"text":  report.Text,
	"json":  func(w io.Writer, d *report.Document, _ report.Options) error { return report.JSON(w, d) },
	"sarif": report.SARIF,
	"jsonl": report.JSONL,
}

// withConfig applies --config, or the root's .acg.yaml when the scanned
// paths did not include it (a scan of single files). --config is the
// user's own choice and is read wherever it is; the root's file is read
// like every file of the tree, never through a link (a warning says so).
func withConfig(snap *incremental.Snapshot, root, path string) (*incremental.Snapshot, []incremental.Warning, error) {
	var c *config.Config
	if path == "" {
		if snap.File(config.FileName) != nil {
			return snap, nil, nil
		}
		src, why, err := incremental.ReadInRoot(root, config.FileName)
		var le *incremental.LinkError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return snap, nil, nil
		case errors.As(err, &le):
			return snap, []incremental.Warning{le.Warning(config.FileName)}, nil
		case err != nil:
			return nil, nil, fmt.Errorf("config: %w", err)
		case why != "":
			return nil, nil, fmt.Errorf("the configuration is not valid:\n%s: %s", config.FileName, why)
		}
		if c, err = config.Parse(config.FileName, src); err != nil {
			return nil, nil, fmt.Errorf("the configuration is not valid:\n%w", err)
		}
		return snap.WithConfig(c), nil, nil
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, nil, fmt.Errorf("the configuration is not valid:\n%w", err)
	}
	// Inside the root, name it like every other path of the output.
	if ar, err1 := filepath.Abs(root); err1 == nil {
		if ap, err2 := filepath.Abs(path); err2 == nil {
			if rel, err3 := filepath.Rel(ar, ap); err3 == nil && !strings.HasPrefix(rel, "..") {
				c.Path = filepath.ToSlash(rel)
			}
		}
	}
	return snap.WithConfig(c), nil, nil
}

// parseInterspersed parses flags wherever they stand among the paths
// (acg scan testdata --format sarif); "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return paths, nil
		}
		if prev := len(args); prev > 0 && args[0] == "--" {
			return append(paths, args[1:]...), nil
		}
		paths = append(paths, args[0])
		args = args[1:]
	}
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "acg scan: %v\n", err)
	return exitUsage
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
