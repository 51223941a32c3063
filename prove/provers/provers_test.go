package provers

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove"
)

func TestSelect(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("ACG_OPENGREP", "")
	t.Setenv("ACG_SEMGREP", "")
	t.Setenv("ACG_CODEQL", "")
	cases := []struct {
		engine   string
		builtin  bool
		external int
		err      bool
	}{
		{"builtin", true, 0, false},
		{"auto", true, 0, false},
		{"", true, 0, false},
		{"opengrep", false, 0, true},
		{"codeql", false, 0, true},
		{"semgrep", false, 0, true},
	}
	for _, c := range cases {
		sel, err := Select(c.engine, Settings{})
		if (err != nil) != c.err || sel.Builtin != c.builtin || len(sel.External) != c.external {
			t.Errorf("%q: %+v %v", c.engine, sel, err)
		}
	}
}

// TestFromConfig: .acg.yaml switches provers off for auto (a named engine
// ignores the switch), asks for provers by name and adds rule files inside
// the root; a program path in it is parsed and ignored, with a notice that
// names the key and not the value.
func TestFromConfig(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "rules", "agents.yaml"), []byte("rules: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(".acg.yaml", []byte("provers:\n  builtin: false\n  codeql: {enabled: false, path: /abs/evil2.sh}\n  opengrep: {path: ./evil.sh, rules: [rules/agents.yaml, /etc/passwd, ../x.yaml]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, notices := Settings{}.FromConfig(cfg, root)
	rules, _ := filepath.EvalSymlinks(filepath.Join(root, "rules", "agents.yaml"))
	if s.Opengrep != "" || s.CodeQL != "" || len(s.OpengrepRules) != 1 || s.OpengrepRules[0] != rules || !s.Off["codeql"] || !s.Off["builtin"] || s.Off["opengrep"] || !s.Asked["opengrep"] || s.Asked["codeql"] {
		t.Fatalf("%+v", s)
	}
	var msgs []string
	for _, n := range notices {
		msgs = append(msgs, n.Error())
	}
	want := []string{
		".acg.yaml:3:34: provers.codeql.path is ignored: acg never runs a program named by the repository it scans",
		".acg.yaml:4:20: provers.opengrep.path is ignored",
		".acg.yaml:4:58: provers.opengrep.rules[1] is skipped: an absolute path",
		".acg.yaml:4:71: provers.opengrep.rules[2] is skipped: leaves the scanned root",
	}
	if len(msgs) != len(want) {
		t.Fatalf("notices:\n%s", strings.Join(msgs, "\n"))
	}
	for i, m := range msgs {
		if !strings.HasPrefix(m, want[i]) {
			t.Errorf("notice %d: %s\nwant %s...", i, m, want[i])
		}
		if strings.Contains(m, "evil") || strings.Contains(m, "passwd") {
			t.Errorf("notice %d quotes the repository's value: %s", i, m)
		}
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("ACG_OPENGREP", "")
	t.Setenv("ACG_SEMGREP", "")
	t.Setenv("ACG_CODEQL", "")
	t.Setenv("ACG_CONFIG", filepath.Join(t.TempDir(), "none.yaml"))
	sel, _ := Select("auto", s)
	if sel.Builtin || len(sel.External) != 0 {
		t.Errorf("auto: %+v", sel)
	}
	// Opengrep was asked for and is not installed, nor is Semgrep, which
	// would do: auto says what it needs, once.
	if len(sel.Missing) != 1 || !strings.Contains(sel.Missing[0].Error(), "opengrep: not found on PATH; install it, or name it with --opengrep, $ACG_OPENGREP or provers.opengrep.path in ") ||
		!strings.Contains(sel.Missing[0].Error(), "Semgrep would do as well, and semgrep: not found on PATH; install it, or name it with --semgrep, $ACG_SEMGREP or provers.semgrep.path in ") {
		t.Errorf("missing: %v", sel.Missing)
	}
	if sel, _ := Select("builtin", s); !sel.Builtin {
		t.Errorf("named builtin: %+v", sel)
	}
}

// TestProgramPrecedence: the flag (or editor setting), then the
// environment, then the user config file name the program; a relative one
// is made absolute against the current directory, never left to resolve
// in the scan root.
func TestProgramPrecedence(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("provers: {opengrep: {path: bin/og}, codeql: {path: /opt/cq}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u, err := config.LoadUser(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ACG_OPENGREP", "")
	t.Setenv("ACG_CODEQL", "/env/cq")
	s := Settings{User: u}
	check := func(name, want, from string) {
		t.Helper()
		got, by, err := s.program(name)
		if err != nil || got != want || !strings.Contains(by, from) {
			t.Errorf("%s: %q (%s) %v, want %q (%s)", name, got, by, err, want, from)
		}
	}
	check("opengrep", filepath.Join(dir, "bin", "og"), cfg)
	check("codeql", "/env/cq", "$ACG_CODEQL")
	s.CodeQL = "./cq"
	wd, _ := os.Getwd()
	check("codeql", filepath.Join(wd, "cq"), "--codeql")
	s.Flag = "the editor setting acg.proverPaths.%s"
	check("codeql", filepath.Join(wd, "cq"), "acg.proverPaths.codeql")
	if got, _, _ := (Settings{}).program("opengrep"); got != "" {
		t.Errorf("nothing set: %q, want PATH", got)
	}
}

// TestUserConfigInsideRoot: a user config file inside the scanned tree is
// the repository's: not read.
func TestUserConfigInsideRoot(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "acg.yaml")
	if err := os.WriteFile(p, []byte("provers: {opengrep: {path: /x}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ACG_CONFIG", p)
	if u, ignored, err := UserConfig(root); u != nil || err != nil || ignored == nil || !strings.Contains(ignored.Error(), "lies inside the scanned root") {
		t.Errorf("inside: %v %v %v", u, ignored, err)
	}
	if u, ignored, err := UserConfig(t.TempDir()); u == nil || u.Program("opengrep") != "/x" || ignored != nil || err != nil {
		t.Errorf("outside: %v %v %v", u, ignored, err)
	}
	t.Setenv("ACG_CONFIG", filepath.Join(root, "none.yaml"))
	if u, ignored, err := UserConfig(t.TempDir()); u != nil || ignored != nil || err != nil {
		t.Errorf("none: %v %v %v", u, ignored, err)
	}
}

// TestStore: stored flows are served while their files are unchanged, and
// dropped after an edit.
func TestStore(t *testing.T) {
	ctx := context.Background()
	snap, _, err := incremental.Load(ctx, "../../testdata/inbox", nil)
	if err != nil {
		t.Fatal(err)
	}
	flows := snap.Analyze().Flows
	if len(flows) == 0 {
		t.Fatal("no flows")
	}
	var s Store
	s.Put("opengrep", "tools.py", snap, flows)
	if got := s.Flows(snap); len(got) != len(flows) {
		t.Fatalf("%d flows, want %d", len(got), len(flows))
	}
	if Fingerprint(snap) == "" || Fingerprint(snap) != Fingerprint(snap.With(2, nil, nil)) {
		t.Error("fingerprint of an unchanged tree changed")
	}
	old := snap.File("tools.py")
	edited, err := incremental.NewFile(ctx, "tools.py", append(append([]byte{}, old.Src...), "\n# edited\n"...), nil)
	if err != nil {
		t.Fatal(err)
	}
	next := snap.With(2, []*incremental.File{edited}, nil)
	if got := s.Flows(next); len(got) != 0 {
		t.Errorf("%d stale flows served after an edit", len(got))
	}
	if Fingerprint(next) == Fingerprint(snap) {
		t.Error("fingerprint did not change with the tree")
	}
}

// recorder is a prover that records what it was asked to scan.
type recorder struct{ files [][]string }

func (r *recorder) Name() string                            { return "recorder" }
func (r *recorder) Version(context.Context) (string, error) { return "1", nil }
func (r *recorder) Run(_ context.Context, req prove.Request) ([]prove.Flow, error) {
	r.files = append(r.files, req.Files)
	return nil, nil
}

// TestRunScansTheSnapshotsFiles: an external prover gets the Python files
// of the scan, not the whole root, which is the checkout when one
// directory of it is scanned; with no Python file it is not run at all.
func TestRunScansTheSnapshotsFiles(t *testing.T) {
	root := t.TempDir()
	for rel, src := range map[string]string{"sub/agent.py": "x = 1\n", "other/tools.py": "y = 2\n", "sub/.mcp.json": "{}"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := &recorder{}
	sel := Selection{External: []prove.Prover{rec}}
	snap, _, err := incremental.Load(context.Background(), root, []string{filepath.Join(root, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	sel.Run(context.Background(), snap, nil)
	if len(rec.files) != 1 || strings.Join(rec.files[0], ",") != "sub/agent.py" {
		t.Errorf("prover asked to scan %q, want [sub/agent.py]", rec.files)
	}
	snap, _, err = incremental.Load(context.Background(), root, []string{filepath.Join(root, "sub", ".mcp.json")})
	if err != nil {
		t.Fatal(err)
	}
	rec.files = nil
	sel.Run(context.Background(), snap, nil)
	if len(rec.files) != 0 {
		t.Errorf("prover run on a scan without Python files: %q", rec.files)
	}
}
