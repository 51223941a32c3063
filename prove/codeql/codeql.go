// Package codeql runs CodeQL in the background: it creates a Python
// database of the workspace (no build), reuses it while the tree's
// fingerprint is unchanged, and analyses it with acg's bundled query pack
// and models-as-data pack (packs/, embedded) plus CodeQL's
// py/prompt-injection. Results come back through the shared SARIF reader.
package codeql

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/internal/proc"
	"github.com/acg-dev/acg/prove/sarif"
)

//go:embed packs
var packs embed.FS

// Pack names and CodeQL's experimental prompt-injection query (by pack
// path; the path inside the pack is CodeQL's layout as of 2.25, unverified
// against a running CLI here).
const (
	ModelPack       = "acg/python-agent-models"
	PromptInjection = "codeql/python-queries:experimental/Security/CWE-1427/PromptInjection.ql"
)

// DefaultTimeout bounds database creation and analysis together.
const DefaultTimeout = 30 * time.Minute

// Runner runs one CodeQL CLI.
type Runner struct {
	Binary  string
	Timeout time.Duration
	// CacheDir holds databases and the bundled packs; empty means
	// <user cache>/acg/codeql.
	CacheDir string
	// Extra are more queries, suites or packs to run (.acg.yaml
	// provers.codeql.rules).
	Extra []string
}

// Find locates the CLI: the configured path when given, else codeql on PATH.
func Find(setting string) (*Runner, error) {
	name := setting
	if name == "" {
		name = "codeql"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if setting == "" {
			return nil, fmt.Errorf("codeql: not found on PATH (install the CodeQL bundle or set its path)")
		}
		return nil, fmt.Errorf("codeql: %w", err)
	}
	return &Runner{Binary: p}, nil
}

func (r *Runner) Name() string { return "codeql" }

// Version runs `codeql version --format=terse`.
func (r *Runner) Version(ctx context.Context) (string, error) {
	out, err := proc.Run(ctx, "", time.Minute, nil, r.Binary, "version", "--format=terse")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// CreateArgs and AnalyzeArgs are the two command lines.
func CreateArgs(db, root string) []string {
	return []string{"database", "create", db, "--language=python", "--source-root=" + root, "--build-mode=none", "--overwrite"}
}

func AnalyzeArgs(db, packsDir, out string, extra []string) []string {
	args := []string{"database", "analyze", db, filepath.Join(packsDir, "agent-queries"), PromptInjection}
	args = append(args, extra...)
	return append(args, "--format=sarif-latest", "--output="+out, "--model-packs="+ModelPack, "--additional-packs="+packsDir, "--threads=0")
}

// Run analyses the whole workspace (req.Files is ignored: CodeQL needs the
// tree). The database is rebuilt only when req.Fingerprint changes.
func (r *Runner) Run(ctx context.Context, req prove.Request) ([]prove.Flow, error) {
	root, err := filepath.Abs(req.Root)
	if err != nil {
		return nil, fmt.Errorf("codeql: %w", err)
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer req.Report(prove.Progress{Prover: "codeql", Done: true})
	work, err := r.workDir(root)
	if err != nil {
		return nil, err
	}
	db := filepath.Join(work, "db")
	if !r.fresh(work, req.Fingerprint) {
		req.Report(prove.Progress{Prover: "codeql", Message: "creating the CodeQL database", Percent: 0})
		os.Remove(filepath.Join(work, "fingerprint"))
		if _, err := proc.Run(ctx, root, 0, nil, r.Binary, CreateArgs(db, root)...); err != nil {
			return nil, err
		}
		if req.Fingerprint != "" {
			if err := os.WriteFile(filepath.Join(work, "fingerprint"), []byte(req.Fingerprint), 0o644); err != nil {
				return nil, fmt.Errorf("codeql: %w", err)
			}
		}
	}
	packsDir, err := proc.Materialize(packs, "packs", "codeql-packs")
	if err != nil {
		return nil, err
	}
	req.Report(prove.Progress{Prover: "codeql", Message: "analysing with acg's queries and py/prompt-injection", Percent: 40})
	out := filepath.Join(work, "results.sarif")
	os.Remove(out)
	if _, err := proc.Run(ctx, root, 0, nil, r.Binary, AnalyzeArgs(db, packsDir, out, r.Extra)...); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("codeql: no results: %w", err)
	}
	res, err := sarif.Read(data, sarif.Options{Root: root, Source: req.Source})
	if err != nil {
		return nil, fmt.Errorf("codeql output: %w", err)
	}
	return res.Flows, nil
}

// workDir is the cache directory of one workspace root.
func (r *Runner) workDir(root string) (string, error) {
	base := r.CacheDir
	if base == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			c = os.TempDir()
		}
		base = filepath.Join(c, "acg", "codeql")
	}
	h := sha256.Sum256([]byte(root))
	dir := filepath.Join(base, hex.EncodeToString(h[:])[:16])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("codeql: %w", err)
	}
	return dir, nil
}

// fresh reports whether the database was built from this exact tree.
func (r *Runner) fresh(work, fingerprint string) bool {
	if fingerprint == "" {
		return false
	}
	if _, err := os.Stat(filepath.Join(work, "db", "codeql-database.yml")); err != nil {
		return false
	}
	old, err := os.ReadFile(filepath.Join(work, "fingerprint"))
	return err == nil && string(old) == fingerprint
}
