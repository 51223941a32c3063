package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

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
	// exitIncomplete: nothing at or above --fail-on in what was read, but
	// some input was not read in full (the notices), so "nothing" is not
	// known.
	exitIncomplete = 3
)

const scanAbout = `Analyses agent code and configs under each PATH (default: the current
directory) and reports every dangerous capability path. Flags may stand
before or after the paths; "--" ends them.

exit status: 0 nothing at or above --fail-on; 1 a finding is; 2 bad usage,
an invalid .acg.yaml or an I/O error; 3 no finding, but some input was not
read in full (see the notices).`

func scan(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("scan", "[flags] [PATH ...]", scanAbout, stdout, stderr)
	format := fs.String("format", "text", "output `FORMAT`: text, json, sarif or jsonl (chain events)")
	failOn := fs.String("fail-on", "high", "exit 1 when a finding is at or above `SEVERITY`: critical, high, medium, low, none (none never fails)")
	root := fs.String("root", "", "`DIR` that paths in the output are relative to (default: the git checkout holding the scanned paths, else the current directory)")
	graphOut := fs.String("graph", "", "also write the capability graph as JSON to `FILE`")
	svgOut := fs.String("svg", "", "also write the trust-boundary map as SVG to `FILE`")
	cedarOut := fs.String("cedar", "", "also write Cedar policies forbidding each finding's tool sequence to `FILE`")
	baseline := fs.String("baseline", "", "report only findings whose ids are not in `FILE` (an earlier --format json or sarif output)")
	cfgPath := fs.String("config", "", "read the configuration from `FILE` instead of the nearest .acg.yaml")
	engine := fs.String("engine", "auto", "flow provers to run, `ENGINE`: builtin, opengrep, semgrep, codeql, or auto (builtin plus whatever is installed: opengrep, else semgrep, and codeql)")
	includeTests := fs.Bool("include-tests", false, "report findings in test code (tests/, test_*.py, *_test.py, conftest.py, *.test.ts, __tests__/) at their own severity; by default they are info and never fail the scan")
	userConfig := fs.Bool("user-config", false, "also read the user-level files of each agent client on this machine (~/.claude.json, ~/.claude/settings.json, ~/.codex/config.toml, ~/.gemini/settings.json, ~/.cursor/mcp.json, …) and merge them with the project's in each client's order; paths are shown with ~ (docs/clients.md)")
	maxSize := sizeFlag(incremental.MaxFileSize)
	fs.Var(&maxSize, "max-file-size", "skip (and report) files larger than `SIZE` bytes (for a notebook, its code; the .ipynb may be 32 times as large); K, M and G suffixes are binary units")
	var tools provers.Settings
	fs.StringVar(&tools.Opengrep, "opengrep", "", "path of the opengrep binary (default: $ACG_OPENGREP, else provers.opengrep.path in the user config, else PATH)")
	fs.StringVar(&tools.Semgrep, "semgrep", "", "path of the semgrep binary, the Opengrep-compatible engine when there is no opengrep (default: $ACG_SEMGREP, else provers.semgrep.path in the user config, else PATH)")
	fs.StringVar(&tools.CodeQL, "codeql", "", "path of the codeql binary (default: $ACG_CODEQL, else provers.codeql.path in the user config, else PATH)")
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
		fmt.Fprintf(stderr, "acg scan: --engine %q: want builtin, opengrep, semgrep, codeql or auto\n", *engine)
		return exitUsage
	}
	r, err := scanRoot(*root, paths)
	if err != nil {
		return fail(stderr, err)
	}
	if len(paths) == 0 && *root == "" {
		paths = []string{"."} // the current directory, not the whole checkout
	}
	var base report.Baseline
	if *baseline != "" {
		if base, err = report.LoadBaseline(*baseline); err != nil {
			return fail(stderr, err)
		}
	}
	prog := report.NewProgress(stderr)
	snap, warns, err := incremental.LoadWith(context.Background(), r, paths, incremental.LoadOptions{Progress: prog.Files, MaxFileSize: int64(maxSize)})
	if err != nil {
		prog.Stop()
		return fail(stderr, err)
	}
	if *userConfig {
		// The user's own files: what their editors will really allow here.
		home, _ := os.UserHomeDir()
		abs, err := filepath.Abs(r)
		if err != nil {
			prog.Stop()
			return fail(stderr, err)
		}
		files, uw := incremental.UserConfigFiles(context.Background(), home, abs)
		snap = snap.WithUserConfig(files)
		warns = append(warns, uw...)
	}
	var cfgWarns []incremental.Warning
	if snap, cfgWarns, err = withConfig(snap, r, *cfgPath, paths); err != nil {
		prog.Stop()
		return fail(stderr, err)
	}
	for _, w := range cfgWarns {
		if !slices.Contains(warns, w) { // the walk may have named the link already
			warns = append(warns, w)
		}
	}
	sel, notices, err := selectProvers(*engine, tools, snap, r)
	if err != nil {
		prog.Stop()
		warnAll(stderr, notices)
		return fail(stderr, err)
	}
	prog.Phase("analysing")
	res, proverWarns, err := sel.Analyze(context.Background(), snap)
	prog.Stop()
	warnAll(stderr, notices)
	if err != nil {
		return fail(stderr, err)
	}
	for _, w := range proverWarns {
		printf(stderr, "acg: warning: %v (continuing with the other provers)\n", w)
	}
	for _, w := range warns {
		printf(stderr, "acg: warning: %s\n", w)
	}
	if res.ConfigErr != nil {
		fmt.Fprintf(stderr, "acg scan: the configuration is not valid:\n%s\n", errorText(res.ConfigErr))
		return exitUsage
	}
	for _, p := range res.Problems {
		printf(stderr, "acg: %s:%d:%d: %s\n", p.Loc.File, p.Loc.Start.Line, p.Loc.Start.Col, p.Message)
	}
	// Tests are not production: findings in test code are info unless
	// asked for, below every --fail-on and the config's threshold.
	var cfgThreshold string
	if res.Config != nil {
		cfgThreshold = res.Config.SeverityThreshold
	}
	doc := report.NewDocument(res.Graph, policy.ForTests(res.Findings, *includeTests, cfgThreshold))
	doc.Suppressed = policy.ForTests(res.Suppressed, *includeTests, cfgThreshold)
	for _, w := range incremental.Incomplete(warns, res.Problems) {
		doc.Notices = append(doc.Notices, report.Notice{File: w.Path, Kind: w.Kind, Message: w.Message, Line: w.Line, Column: w.Column})
	}
	for _, f := range res.CheckFailures {
		printf(stderr, "acg: check %s failed (a bug in acg; please report it): %s\n%s", f.Check, f.Panic, f.Stack)
		doc.Notices = append(doc.Notices, report.Notice{File: ".", Kind: incremental.WarnCheckFailed,
			Message: "check " + f.Check + " failed and was skipped: its findings are missing (" + f.Panic + ")"})
	}
	if base != nil {
		doc.Findings, doc.Suppressed = base.New(doc.Findings), base.New(doc.Suppressed)
	}
	absRoot, err := filepath.Abs(r)
	if err != nil {
		return fail(stderr, err)
	}
	opts := report.Options{ToolVersion: version, Baseline: base != nil, Color: report.UseColor(stdout), Now: now, Root: absRoot}
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
	if threshold > 0 && len(doc.Notices) > 0 {
		return exitIncomplete // fail closed: what was not read may hold a finding
	}
	return exitOK
}

// selectProvers picks the provers of a scan of root. The programs come
// from the user (tools: the flags; then the environment and the user's
// config file); the repository's config only switches provers and adds
// rule files inside root. What it asked for and acg ignored, or could not
// find, is in the notices.
func selectProvers(engine string, tools provers.Settings, snap *incremental.Snapshot, root string) (provers.Selection, []error, error) {
	user, ignored, err := provers.UserConfig(root)
	if err != nil {
		return provers.Selection{}, nil, fmt.Errorf("the user config is not valid:\n%w", err)
	}
	tools.User = user
	var notices []error
	if ignored != nil {
		notices = append(notices, ignored)
	}
	cfg, _ := snap.Config() // a bad config is reported with the analysis
	tools, more := tools.FromConfig(cfg, root)
	notices = append(notices, more...)
	sel, err := provers.Select(engine, tools)
	if err != nil {
		return sel, notices, fmt.Errorf("--engine %s: %w", engine, err)
	}
	return sel, append(notices, sel.Missing...), nil
}

func warnAll(stderr io.Writer, ws []error) {
	for _, w := range ws {
		printf(stderr, "acg: warning: %v\n", w)
	}
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
	fmt.Fprintf(stderr, "acg scan: %s\n", errorText(err))
	return exitUsage
}
