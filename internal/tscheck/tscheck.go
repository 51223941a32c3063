// Package tscheck type-checks acg's TypeScript test fixtures with the real,
// pinned framework packages (scripts/npm/frameworks, installed by
// scripts/npmenv.sh) and tsc in strict mode, so that a fixture that uses an
// API a framework does not have fails a test instead of teaching an adapter
// a shape no real program has. The counterpart of internal/pyrun's fixture
// check for Python.
//
// Only tsc runs, with noEmit: no fixture is executed, and nothing of a
// scanned repository is ever checked or run here.
package tscheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// EnvVar names the variable scripts/test.sh sets to the frameworks' npm
// install (scripts/npmenv.sh frameworks).
const EnvVar = "ACG_NPM_FRAMEWORKS"

// ErrNoNode is why the check cannot run on a machine without Node.js.
var ErrNoNode = errors.New("node/npm not found: the TypeScript fixture check needs Node.js 20+ (the packages come from scripts/npmenv.sh frameworks)")

// Exts are the file kinds tsc checks as TypeScript.
var Exts = []string{".ts", ".tsx", ".mts", ".cts"}

// Install returns the frameworks' npm directory: $ACG_NPM_FRAMEWORKS when
// set, else what scripts/npmenv.sh frameworks prints (it installs once and
// reuses the cache afterwards). root is the repository root.
func Install(ctx context.Context, root string) (string, error) {
	if dir := os.Getenv(EnvVar); dir != "" {
		return dir, nil
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", ErrNoNode
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", ErrNoNode
	}
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "npmenv.sh"), "frameworks")
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("scripts/npmenv.sh frameworks: %w\n%s", err, stderr.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// Fixtures lists the TypeScript files under dir (slash paths relative to
// it), skipping the goldens, declaration files and node_modules.
func Fixtures(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator)))
		if d.IsDir() {
			if rel == "golden" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".d.ts") {
			return nil
		}
		for _, e := range Exts {
			if strings.HasSuffix(rel, e) {
				files = append(files, rel)
				break
			}
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// Diagnostic is one tsc error, on a fixture file (slash path relative to
// the fixtures' root).
type Diagnostic struct {
	File string
	Line int
	Text string
}

// The compiler options every fixture is checked with. strict is the point;
// "preserve"/"bundler" resolution reads the packages' exports maps and
// takes extensionless relative imports as bundlers and tsx do, so a
// fixture need not pick a module system; skipLibCheck because the check is
// of the fixtures, not of the packages' own declarations.
func compilerOptions(npm string) map[string]any {
	return map[string]any{
		"strict":           true,
		"noEmit":           true,
		"target":           "es2022",
		"lib":              []string{"es2023", "dom"},
		"module":           "preserve",
		"moduleResolution": "bundler",
		"skipLibCheck":     true,
		"esModuleInterop":  true,
		"jsx":              "react-jsx",
		"types":            []string{"node"},
		"typeRoots":        []string{filepath.Join(npm, "node_modules", "@types")},
	}
}

var diagLine = regexp.MustCompile(`^(.+?)\((\d+),(\d+)\): (error .*)$`)

// Check copies files (relative to src) into a temporary project beside a
// node_modules link to the npm install, writes a strict tsconfig there and
// runs the installed tsc once over all of them. It returns tsc's errors per
// fixture file; err is for a check that could not run.
func Check(ctx context.Context, npm, src string, files []string) ([]Diagnostic, error) {
	tsc := filepath.Join(npm, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		return nil, fmt.Errorf("tsc not installed in %s: %w (run scripts/npmenv.sh frameworks)", npm, err)
	}
	tmp, err := os.MkdirTemp("", "acg-tscheck-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// Copies, not the fixtures in place: module resolution walks up from
	// each file to a node_modules, and testdata must not hold one.
	proj := filepath.Join(tmp, "src")
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(proj, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.Symlink(filepath.Join(npm, "node_modules"), filepath.Join(tmp, "node_modules")); err != nil {
		return nil, err
	}
	var inputs []string
	for _, f := range files {
		inputs = append(inputs, "src/"+f)
	}
	opts := compilerOptions(npm)
	if paths := fixturePaths(src, files); len(paths) > 0 {
		opts["paths"] = paths
	}
	cfg, err := json.MarshalIndent(map[string]any{"compilerOptions": opts, "files": inputs}, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "tsconfig.json"), cfg, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, tsc, "-p", "tsconfig.json", "--pretty", "false")
	cmd.Dir = tmp
	out, runErr := cmd.CombinedOutput()
	var diags []Diagnostic
	var last *Diagnostic
	for _, line := range strings.Split(string(out), "\n") {
		if m := diagLine.FindStringSubmatch(strings.TrimRight(line, "\r")); m != nil {
			var n int
			fmt.Sscan(m[2], &n)
			diags = append(diags, Diagnostic{File: strings.TrimPrefix(filepath.ToSlash(m[1]), "src/"), Line: n, Text: m[4]})
			last = &diags[len(diags)-1]
			continue
		}
		if last != nil && strings.HasPrefix(line, " ") {
			last.Text += "\n" + line // a continued message (type elaboration)
		} else if strings.TrimSpace(line) != "" {
			diags = append(diags, Diagnostic{Text: strings.TrimSpace(line)})
			last = &diags[len(diags)-1]
		}
	}
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) {
		return nil, fmt.Errorf("tsc: %w", runErr)
	}
	if runErr != nil && len(diags) == 0 {
		return nil, fmt.Errorf("tsc failed without a diagnostic: %v\n%s", runErr, out)
	}
	return diags, nil
}

// fixturePaths merges the path aliases ("paths" in compilerOptions) of the
// tsconfig.json files that sit in a fixture's directory or above it (up to
// src), each target rewritten to where the fixture is copied, so a fixture
// that imports through an alias ("@/lib/tools/x", as Next.js apps write)
// compiles as in its own project. Aliases of several fixtures are
// fallbacks of one another, tried in order, as tsc does with a list.
func fixturePaths(src string, files []string) map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, f := range files {
		for dir := path.Dir(f); dir != "." && dir != "/"; dir = path.Dir(dir) {
			if seen[dir] {
				continue
			}
			seen[dir] = true
			data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(dir), "tsconfig.json"))
			if err != nil {
				continue
			}
			var cfg struct {
				CompilerOptions struct {
					Paths map[string][]string `json:"paths"`
				} `json:"compilerOptions"`
			}
			if json.Unmarshal(data, &cfg) != nil {
				continue
			}
			keys := make([]string, 0, len(cfg.CompilerOptions.Paths))
			for k := range cfg.CompilerOptions.Paths {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				for _, target := range cfg.CompilerOptions.Paths[k] {
					out[k] = append(out[k], "./"+path.Join("src", dir, target))
				}
			}
		}
	}
	return out
}
