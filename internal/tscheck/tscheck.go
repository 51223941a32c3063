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
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
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
// runs the installed tsc over all of them. It returns tsc's errors per
// fixture file; err is for a check that could not run.
//
// A fixture that is a project of its own (a tsconfig.json with "paths", a
// package.json with "workspaces", a pnpm-workspace.yaml: projects) is
// checked by a tsc run of its own: its tsconfig is extended, so its path
// aliases hold, and its workspace packages are linked into its
// node_modules by name, as npm, yarn and pnpm install them; the rest share
// one run.
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
	configs, err := moduleConfigs(src, files)
	if err != nil {
		return nil, err
	}
	for _, f := range append(append([]string(nil), files...), configs...) {
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
	roots := projects(src, configs)
	byRoot := map[string][]string{}
	for _, f := range files {
		r := ""
		for _, root := range roots {
			if strings.HasPrefix(f, root+"/") && len(root) > len(r) {
				r = root
			}
		}
		byRoot[r] = append(byRoot[r], f)
	}
	var diags []Diagnostic
	for _, r := range slices.Sorted(maps.Keys(byRoot)) {
		cfgPath := "tsconfig.json"
		var inputs []string
		cfg := map[string]any{"compilerOptions": compilerOptions(npm)}
		if r == "" {
			for _, f := range byRoot[r] {
				inputs = append(inputs, "src/"+f)
			}
		} else {
			cfgPath = "src/" + r + "/tsconfig.acg-check.json"
			for _, f := range byRoot[r] {
				inputs = append(inputs, strings.TrimPrefix(f, r+"/"))
			}
			if slices.Contains(configs, r+"/tsconfig.json") {
				cfg["extends"] = "./tsconfig.json"
			}
			if err := linkWorkspace(filepath.Join(proj, filepath.FromSlash(r)), r, configs, src); err != nil {
				return nil, err
			}
		}
		cfg["files"] = inputs
		cfg["include"] = []string{}
		d, err := runTSC(ctx, tsc, tmp, cfgPath, cfg)
		if err != nil {
			return nil, err
		}
		diags = append(diags, d...)
	}
	return diags, nil
}

// moduleConfigs are the tsconfig*.json, package.json and
// pnpm-workspace.yaml files in the directories of the fixtures and above
// them (under src).
func moduleConfigs(src string, files []string) ([]string, error) {
	dirs := map[string]bool{}
	for _, f := range files {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	var out []string
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		entries, err := os.ReadDir(filepath.Join(src, filepath.FromSlash(d)))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() && (n == "package.json" || n == "pnpm-workspace.yaml" || strings.HasPrefix(n, "tsconfig") && strings.HasSuffix(n, ".json")) {
				out = append(out, d+"/"+n)
			}
		}
	}
	// Configs a tsconfig extends may sit in a directory of no fixture
	// (config/tsconfig.base.json): copy every tsconfig of a project too.
	for _, r := range projects(src, out) {
		_ = filepath.WalkDir(filepath.Join(src, filepath.FromSlash(r)), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel := filepath.ToSlash(strings.TrimPrefix(p, src+string(filepath.Separator)))
			if n := d.Name(); strings.HasPrefix(n, "tsconfig") && strings.HasSuffix(n, ".json") && !slices.Contains(out, rel) {
				out = append(out, rel)
			}
			return nil
		})
	}
	sort.Strings(out)
	return out, nil
}

// projects are the directories among the configs' that are projects of
// their own: a tsconfig.json with compilerOptions.paths, a package.json
// with workspaces, a pnpm-workspace.yaml.
func projects(src string, configs []string) []string {
	var out []string
	for _, c := range configs {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(c)))
		if err != nil {
			continue
		}
		var v struct {
			Workspaces      any            `json:"workspaces"`
			CompilerOptions map[string]any `json:"compilerOptions"`
		}
		own := false
		switch path.Base(c) {
		case "pnpm-workspace.yaml":
			own = true
		case "package.json":
			own = json.Unmarshal(data, &v) == nil && v.Workspaces != nil
		case "tsconfig.json":
			// JSONC: the paths key is looked for as text.
			own = bytes.Contains(data, []byte(`"paths"`)) || bytes.Contains(data, []byte(`"extends"`))
		}
		if d := path.Dir(c); own && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// linkWorkspace links every package.json with a name below a project root
// into the root's node_modules under that name, as a workspace install
// does (nothing is installed or run).
func linkWorkspace(dir, root string, configs []string, src string) error {
	for _, c := range configs {
		if path.Base(c) != "package.json" || !strings.HasPrefix(c, root+"/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(c)))
		if err != nil {
			return err
		}
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(data, &p) != nil || p.Name == "" || strings.Contains(p.Name, "..") {
			continue
		}
		link := filepath.Join(dir, "node_modules", filepath.FromSlash(p.Name))
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(path.Dir(c), root+"/")))
		if err := os.Symlink(target, link); err != nil && !os.IsExist(err) {
			return err
		}
	}
	return nil
}

// runTSC writes cfg at cfgPath (relative to tmp) and runs tsc -p on it,
// returning the diagnostics on the fixtures.
func runTSC(ctx context.Context, tsc, tmp, cfgPath string, cfg map[string]any) ([]Diagnostic, error) {
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(cfgPath)), data, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, tsc, "-p", cfgPath, "--pretty", "false")
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
