// Package opengrep runs the Opengrep-compatible engine with acg's bundled
// taint rules (rules/, embedded) and reads its SARIF paths, one file at a
// time on save: Opengrep itself (intra-file, inter-procedural with
// --taint-intrafile), or Semgrep CE, which Opengrep forked and which reads
// the same rules (semgrep.go; intra-procedural only). The binary is found
// on PATH or given by a setting; it is run as an argument list, never
// through a shell, with a timeout, and killed with its process group when
// the context ends (the file changed again).
package opengrep

import (
	"context"
	"embed"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/internal/proc"
	"github.com/acg-dev/acg/prove/sarif"
)

//go:embed rules/*.yaml
var bundled embed.FS

// DefaultTimeout bounds one scan.
const DefaultTimeout = 60 * time.Second

// Runner runs one Opengrep or Semgrep binary.
type Runner struct {
	Binary string
	// Engine is EngineOpengrep ("" too) or EngineSemgrep.
	Engine  string
	Timeout time.Duration
	// Extra are more rule files or directories (.acg.yaml provers.opengrep.rules),
	// run beside the bundled rules.
	Extra []string

	once     sync.Once
	rulesDir string
	rulesErr error
}

// Find locates the binary: the configured path when given, else opengrep
// on PATH.
func Find(setting string) (*Runner, error) {
	if setting != "" {
		p, err := exec.LookPath(setting)
		if err != nil {
			return nil, fmt.Errorf("opengrep: %w", err)
		}
		return &Runner{Binary: p, Engine: EngineOpengrep}, nil
	}
	p, err := exec.LookPath("opengrep")
	if err != nil {
		return nil, fmt.Errorf("opengrep: not found on PATH (install it or set its path)")
	}
	return &Runner{Binary: p, Engine: EngineOpengrep}, nil
}

// Name is the engine's name: opengrep or semgrep.
func (r *Runner) Name() string {
	if r.Engine == EngineSemgrep {
		return EngineSemgrep
	}
	return EngineOpengrep
}

// Version runs `opengrep --version` (Semgrep: its engine's -version).
func (r *Runner) Version(ctx context.Context) (string, error) {
	if r.Name() == EngineSemgrep {
		return r.semgrepVersion(ctx)
	}
	out, err := proc.Run(ctx, "", 20*time.Second, nil, r.Binary, "--version")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(firstLine(string(out))), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Args is the command line for a scan of targets (root-relative paths):
// one --config per rules path, the bundled rules first.
func Args(rules []string, targets []string) []string {
	args := []string{"scan"}
	for _, r := range rules {
		args = append(args, "--config", r)
	}
	args = append(args, "--sarif", "--dataflow-traces", "--taint-intrafile")
	return append(args, targets...)
}

// Run scans req.Files (the whole root when empty) and returns the flows.
// Exit code 1 means findings; other non-zero exits are errors.
func (r *Runner) Run(ctx context.Context, req prove.Request) ([]prove.Flow, error) {
	bundled, err := r.rules()
	if err != nil {
		return nil, err
	}
	rules := append([]string{bundled}, r.Extra...)
	targets := req.Files
	if len(targets) == 0 {
		targets = []string{"."}
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if r.Name() == EngineSemgrep {
		return r.runSemgrep(ctx, req, rules, targets, timeout)
	}
	req.Report(prove.Progress{Prover: "opengrep", Message: "scanning " + strings.Join(targets, " "), Percent: -1})
	out, err := proc.Run(ctx, req.Root, timeout, func(code int) bool { return code == 1 }, r.Binary, Args(rules, targets)...)
	req.Report(prove.Progress{Prover: "opengrep", Done: true})
	if err != nil {
		return nil, err
	}
	res, err := sarif.Read(out, sarif.Options{Root: req.Root, Source: req.Source})
	if err != nil {
		return nil, fmt.Errorf("opengrep output: %w", err)
	}
	return res.Flows, nil
}

// rules returns the bundled rules' path, writing them once to a directory
// named by their hash (so a cache dir is shared by versions).
func (r *Runner) rules() (string, error) {
	r.once.Do(func() { r.rulesDir, r.rulesErr = proc.Materialize(bundled, "rules", "opengrep-rules") })
	return r.rulesDir, r.rulesErr
}
