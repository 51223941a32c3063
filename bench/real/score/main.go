// Command score runs acg on the real-code evaluation (bench/real) and compares its
// answers with the hand-written labels.
//
//	go run ./bench/real/score --mirrors /work/.mirror [--acg BINARY] [--json FILE]
//
// For each target of bench/real/manifest.yaml it extracts the pinned commit's files
// under the target's paths from <mirrors>/<owner>+<name>/repo (a bare clone, as the
// search tool's `fetch` leaves it) into a temporary directory, runs
// `acg scan --format json --engine builtin --fail-on none` there, matches acg's agents to
// the labelled agents (see Match) and prints agent recall, per-rule precision and recall
// on certain labels, findings on unlabelled agents and the share of findings that rest
// on the fail-closed default. Without --acg it builds ./cmd/acg from this checkout.
// It never runs code from the scanned repositories.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	manifest := fs.String("manifest", "bench/real/manifest.yaml", "the manifest of targets")
	labels := fs.String("labels", "bench/real/labels", "the directory of label files")
	mirrors := fs.String("mirrors", "/work/.mirror", "where the bare mirrors are (<owner>+<name>/repo)")
	acg := fs.String("acg", "", "the acg binary to evaluate (default: build ./cmd/acg)")
	jsonOut := fs.String("json", "", "also write the summary as JSON to FILE")
	only := fs.String("repo", "", "score only the targets whose repo contains this string")
	keep := fs.String("keep", "", "extract the trees into DIR and keep them (default: a temporary directory, removed)")
	verbose := fs.Bool("v", false, "list every false positive, false negative and unlabelled finding")
	if err := fs.Parse(args); err != nil {
		return err
	}
	m, lfs, err := loadManifest(*manifest, *labels)
	if err != nil {
		return err
	}
	work := *keep
	if work == "" {
		if work, err = os.MkdirTemp("", "acg-bench-real-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	}
	bin, built := *acg, ""
	if bin == "" {
		bin = filepath.Join(work, "acg")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/acg").CombinedOutput(); err != nil {
			return fmt.Errorf("build ./cmd/acg: %v\n%s", err, out)
		}
		built = checkoutCommit()
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return err
	}

	var inputs []RepoInput
	for _, t := range m.Targets {
		if *only != "" && !strings.Contains(t.Repo, *only) {
			continue
		}
		in := RepoInput{Target: t, Labels: lfs[t.Repo]}
		in.Scan, in.Missing, in.Err = scanTarget(bin, *mirrors, work, t)
		if in.Err != nil {
			fmt.Fprintf(os.Stderr, "score: %s: %v\n", t.Repo, in.Err)
		}
		inputs = append(inputs, in)
	}
	s := Score(inputs)
	s.Date = time.Now().UTC().Format(time.RFC3339)
	s.Acg = bin
	if out, err := exec.Command(bin, "version").Output(); err == nil {
		s.AcgCommit = strings.TrimSpace(string(out))
	}
	if built != "" {
		s.AcgCommit += " (built from " + built + ")"
	}
	printSummary(stdout, s, *verbose)
	if *jsonOut != "" {
		data, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkoutCommit names the commit ./cmd/acg was built from, so a result says which
// code it measured; local changes are marked.
func checkoutCommit() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += "+changes"
	}
	return c
}

// scanTarget extracts one target and scans it with the builtin engine only.
func scanTarget(bin, mirrors, work string, t Target) (*Scan, int, error) {
	gitDir := filepath.Join(mirrors, t.MirrorName(), "repo")
	if _, err := os.Stat(gitDir); err != nil {
		return nil, 0, fmt.Errorf("no mirror at %s (fetch github:%s first)", gitDir, t.Repo)
	}
	dir := filepath.Join(work, t.MirrorName())
	if err := os.RemoveAll(dir); err != nil {
		return nil, 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, 0, err
	}
	missing, err := extractTree(gitDir, t.Commit, t.Paths, dir)
	if err != nil {
		return nil, missing, err
	}
	args := []string{"scan", "--format", "json", "--engine", "builtin", "--fail-on", "none", "--root", dir}
	for _, p := range t.Paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if _, err := os.Stat(full); err == nil {
			args = append(args, full)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	// 0: clean; 1: findings at or above --fail-on; 3: some input not read in full.
	if err != nil && !(errors.As(err, &exit) && (exit.ExitCode() == 1 || exit.ExitCode() == 3)) {
		return nil, missing, fmt.Errorf("acg scan: %v: %s", err, strings.TrimSpace(errOut.String()))
	}
	var s Scan
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		return nil, missing, fmt.Errorf("acg scan output: %w", err)
	}
	return &s, missing, nil
}
