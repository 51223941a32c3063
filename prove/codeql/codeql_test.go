package codeql

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/standin"
)

// The test binary doubles as the CodeQL CLI stand-in (package standin):
// CodeQL cannot be installed here.
func TestMain(m *testing.M) {
	standin.Main()
	os.Exit(m.Run())
}

func standIn(t *testing.T, sample string) (*Runner, string) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("../../testdata/sarif", sample))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "argv.log")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // bundled rules and packs are written there
	t.Setenv("ACG_STANDIN", "codeql")
	t.Setenv("ACG_STANDIN_SARIF", abs)
	t.Setenv("ACG_STANDIN_LOG", log)
	return &Runner{Binary: os.Args[0], CacheDir: t.TempDir()}, log
}

func calls(t *testing.T, log string) []string {
	data, _ := os.ReadFile(log)
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestRunReusesDatabase: the first run creates the database and analyses,
// the second with the same fingerprint only analyses, a changed tree
// creates again. The replayed log is a real CodeQL 2.25.6 result.
func TestRunReusesDatabase(t *testing.T) {
	r, log := standIn(t, "codeql-2.25.6-py-path-injection.sarif")
	root := t.TempDir()
	var progress []prove.Progress
	req := prove.Request{Root: root, Fingerprint: "tree-1", Progress: func(p prove.Progress) { progress = append(progress, p) }}
	fls, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(fls) != 20 || fls[0].Tool != "codeql" {
		t.Fatalf("%d flows", len(fls))
	}
	work, _ := r.workDir(root)
	packsDir := filepath.Dir(strings.Fields(calls(t, log)[1])[3]) // the parent of agent-queries
	want := []string{
		strings.Join(CreateArgs(filepath.Join(work, "db"), root), " "),
		strings.Join(AnalyzeArgs(filepath.Join(work, "db"), packsDir, filepath.Join(work, "results.sarif"), nil), " "),
	}
	if got := calls(t, log); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("argv:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(progress) != 3 || progress[0].Percent != 0 || !progress[2].Done {
		t.Errorf("progress %+v", progress)
	}
	if _, err := r.Run(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := calls(t, log); len(got) != 3 || !strings.HasPrefix(got[2], "database analyze") {
		t.Errorf("second run: %q", got)
	}
	req.Fingerprint = "tree-2"
	if _, err := r.Run(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := calls(t, log); len(got) != 5 || !strings.HasPrefix(got[3], "database create") {
		t.Errorf("changed tree: %q", got)
	}
}

func TestVersion(t *testing.T) {
	r, _ := standIn(t, "codeql-2.9.3-py-mixed.sarif")
	if v, err := r.Version(context.Background()); err != nil || v != "2.25.6" {
		t.Fatalf("%q %v", v, err)
	}
}

func TestCancel(t *testing.T) {
	r, _ := standIn(t, "codeql-2.9.3-py-mixed.sarif")
	t.Setenv("ACG_STANDIN_SLEEP", "60s")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Run(ctx, prove.Request{Root: t.TempDir()}); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
}

// TestBundledPacks: what analyze is pointed at exists and names itself as
// the CLI expects (the real CLI cannot compile the queries here).
func TestBundledPacks(t *testing.T) {
	models, err := packs.ReadFile("packs/agent-models/qlpack.yml")
	if err != nil || !strings.Contains(string(models), "name: "+ModelPack) || !strings.Contains(string(models), "extensionTargets:") {
		t.Fatalf("model pack: %v\n%s", err, models)
	}
	entries, err := packs.ReadDir("packs/agent-queries")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".ql") {
			continue
		}
		q, _ := packs.ReadFile("packs/agent-queries/" + e.Name())
		for _, line := range strings.Split(string(q), "\n") {
			if id, ok := strings.CutPrefix(strings.TrimSpace(line), "* @id "); ok {
				ids[id] = true
			}
		}
		if !strings.Contains(string(q), "@kind path-problem") || !strings.Contains(string(q), "acg-source:") {
			t.Errorf("%s: not a tagged path-problem", e.Name())
		}
	}
	for _, id := range []string{"acg/untrusted-to-return", "acg/param-to-egress", "acg/param-to-exec", "acg/param-to-write"} {
		if !ids[id] {
			t.Errorf("no query %s", id)
		}
	}
}
