package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoWithInbox makes a git checkout (a .git directory is all that marks
// one) holding the inbox demo under sub/dir, and again under other/.
func repoWithInbox(t *testing.T, gitFile bool) string {
	t.Helper()
	inbox, err := filepath.Abs("../../testdata/inbox")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if gitFile { // a worktree or submodule: .git is a file
		if err := os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "sub", "dir")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"agent.py", "tools.py", "__init__.py"} {
		b, err := os.ReadFile(filepath.Join(inbox, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An agent elsewhere in the checkout, which a scan of sub/dir leaves out.
	if err := os.MkdirAll(filepath.Join(root, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"agent.py", "tools.py", "__init__.py"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if err := os.WriteFile(filepath.Join(root, "other", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestPathsRelativeToRepoRoot scans a subdirectory of a checkout from the
// checkout's root and from inside the subdirectory: every path of every
// output names a real file relative to the repository root, and SARIF's
// %SRCROOT% is that root.
func TestPathsRelativeToRepoRoot(t *testing.T) {
	roots := []string{repoWithInbox(t, false), repoWithInbox(t, true)}
	for _, root := range roots {
		for _, from := range []struct{ cwd, arg string }{{".", "sub/dir"}, {"sub", "dir"}, {"sub/dir", "."}, {"sub/dir", ""}} {
			t.Chdir(filepath.Join(root, from.cwd))
			// scanArgs adds the path scanned (none: the current directory).
			scanArgs := func(flags ...string) []string {
				if from.arg != "" {
					flags = append(flags, from.arg)
				}
				return flags
			}
			exists := func(format, rel string) {
				t.Helper()
				if rel == "" || filepath.IsAbs(rel) || strings.HasPrefix(rel, "..") {
					t.Errorf("%s (cd %s; scan %s): path %q is not relative to the root", format, from.cwd, from.arg, rel)
					return
				}
				if strings.HasPrefix(rel, "other/") {
					t.Errorf("%s (cd %s; scan %s): %s is outside the scanned directory", format, from.cwd, from.arg, rel)
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
					t.Errorf("%s (cd %s; scan %s): %q is not a file under the repository root: %v", format, from.cwd, from.arg, rel, err)
				}
			}

			out, errs, code := run(t, scanArgs("--format", "sarif", "--fail-on", "none")...)
			if code != 0 {
				t.Fatalf("sarif: exit %d: %s", code, errs)
			}
			var log struct {
				Runs []struct {
					OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
					Results            []struct {
						Locations []struct {
							PhysicalLocation struct {
								ArtifactLocation struct{ URI, URIBaseID string } `json:"artifactLocation"`
							} `json:"physicalLocation"`
						} `json:"locations"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &log); err != nil {
				t.Fatal(err)
			}
			base := log.Runs[0].OriginalURIBaseIDs["%SRCROOT%"].URI
			u, err := url.Parse(base)
			if err != nil || u.Scheme != "file" || !strings.HasSuffix(base, "/") || filepath.Clean(filepath.FromSlash(u.Path)) != root {
				t.Errorf("sarif: %%SRCROOT%% = %q, want the file URI of %s with a trailing slash", base, root)
			}
			if len(log.Runs[0].Results) == 0 {
				t.Fatal("sarif: no results")
			}
			for _, r := range log.Runs[0].Results {
				for _, l := range r.Locations {
					a := l.PhysicalLocation.ArtifactLocation
					if a.URIBaseID != "%SRCROOT%" {
						t.Errorf("sarif: uriBaseId %q", a.URIBaseID)
					}
					exists("sarif", a.URI)
				}
			}

			out, errs, code = run(t, scanArgs("--format", "json", "--fail-on", "none")...)
			if code != 0 {
				t.Fatalf("json: exit %d: %s", code, errs)
			}
			var doc struct {
				Agents, Tools []struct{ File string }
				SharedSteps   map[string]struct{ File string } `json:"shared_steps"`
				Findings      []struct {
					Location struct{ File string }
					Steps    []struct{ File, Ref string }
				}
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			for _, a := range append(doc.Agents, doc.Tools...) {
				exists("json", a.File)
			}
			for _, f := range doc.Findings {
				exists("json", f.Location.File)
				for _, s := range f.Steps {
					if s.Ref != "" { // a shared step, checked below
						continue
					}
					exists("json", s.File)
				}
			}
			for _, s := range doc.SharedSteps {
				exists("json", s.File)
			}

			// The side outputs and chain events name the same files.
			side := t.TempDir()
			out, errs, code = run(t, scanArgs("--format", "jsonl", "--fail-on", "none", "--graph", filepath.Join(side, "g.json"),
				"--cedar", filepath.Join(side, "p.cedar"), "--svg", filepath.Join(side, "m.svg"))...)
			if code != 0 {
				t.Fatalf("jsonl: exit %d: %s", code, errs)
			}
			outputs := map[string]string{"jsonl": out}
			for _, name := range []string{"g.json", "p.cedar", "m.svg"} {
				b, err := os.ReadFile(filepath.Join(side, name))
				if err != nil {
					t.Fatal(err)
				}
				outputs[name] = string(b)
			}
			for name, text := range outputs {
				for _, m := range regexp.MustCompile(`[\w./-]*\.py\b`).FindAllString(text, -1) {
					if strings.Contains(m, "/") || name != "jsonl" { // jsonl names tools, not files
						exists(name, m)
					}
				}
			}

			out, errs, code = run(t, scanArgs("--fail-on", "none")...)
			if code != 0 {
				t.Fatalf("text: exit %d: %s", code, errs)
			}
			locs := regexp.MustCompile(`(?m)^\s*(\S+\.py):\d+:\d+`).FindAllStringSubmatch(out, -1)
			if len(locs) == 0 {
				t.Fatalf("text: no file:line:col in\n%s", out)
			}
			for _, m := range locs {
				exists("text", m[1])
			}
		}
	}
}

// TestRootFlag: --root overrides the repository root, and without a
// checkout the current directory is the root.
func TestRootFlag(t *testing.T) {
	root := repoWithInbox(t, false)
	t.Chdir(root)
	out, errs, code := run(t, "--format", "json", "--fail-on", "none", "--root", "sub", "sub/dir")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"file": "dir/agent.py"`) {
		t.Errorf("--root sub: paths not relative to sub:\n%s", out)
	}
	if err := os.Remove(filepath.Join(root, ".git")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "sub"))
	out, errs, code = run(t, "--format", "json", "--fail-on", "none", "dir")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"file": "dir/agent.py"`) {
		t.Errorf("no checkout: paths not relative to the current directory:\n%s", out)
	}
}

// TestConfigOfScannedDirectory: a .acg.yaml in the scanned directory
// applies when that directory is scanned as part of a checkout, with its
// file ids (tools.py#send_http) read relative to its own directory; the
// checkout root's .acg.yaml applies to a scan of a directory without one.
func TestConfigOfScannedDirectory(t *testing.T) {
	fixture, err := filepath.Abs("../../testdata/config-override")
	if err != nil {
		t.Fatal(err)
	}
	root := repoWithInbox(t, false)
	cfg, err := os.ReadFile(filepath.Join(fixture, ".acg.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "dir", ".acg.yaml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	out, errs, code := run(t, "--format", "json", "sub/dir")
	if code != 0 || !strings.Contains(out, `"findings": []`) {
		t.Fatalf("sub/dir/.acg.yaml not applied: exit %d: %s\n%s", code, errs, out)
	}
	if !strings.Contains(out, `"network_egress": "config"`) {
		t.Errorf("the file id tools.py#send_http did not match sub/dir/tools.py:\n%s", out)
	}

	// Moved to the root, it applies to the subdirectory's scan as well
	// (its ids now name the files from the root).
	if err := os.Remove(filepath.Join(root, "sub", "dir", ".acg.yaml")); err != nil {
		t.Fatal(err)
	}
	rooted := strings.ReplaceAll(string(cfg), "tools.py#", "sub/dir/tools.py#")
	if err := os.WriteFile(filepath.Join(root, ".acg.yaml"), []byte(rooted), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = run(t, "--format", "json", "sub/dir")
	if code != 0 || !strings.Contains(out, `"network_egress": "config"`) {
		t.Errorf("root .acg.yaml not applied to sub/dir: exit %d: %s\n%s", code, errs, out)
	}
}

// TestExplainPaths: acg explain names files as acg scan does.
func TestExplainPaths(t *testing.T) {
	root := repoWithInbox(t, false)
	t.Chdir(filepath.Join(root, "sub", "dir"))
	out, errs, code := cli("explain", "send_http")
	if code != 0 || !strings.Contains(out, "send_http  (langchain, function) sub/dir/tools.py:35") {
		t.Errorf("explain from sub/dir: exit %d: %s\n%s", code, errs, out)
	}
	out, _, _ = cli("explain", "--root", ".", "send_http")
	if !strings.Contains(out, " tools.py:35") {
		t.Errorf("explain --root .: paths not relative to it:\n%s", out)
	}
}
