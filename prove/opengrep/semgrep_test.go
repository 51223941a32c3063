package opengrep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acg-dev/acg/internal/gentree"
	"github.com/acg-dev/acg/prove"
)

// realSemgrep is the Semgrep that scripts/pyenv.sh installed
// ($ACG_VENV_SEMGREP, exported by scripts/test.sh); the test skips
// without it.
func realSemgrep(t testing.TB) *Runner {
	t.Helper()
	venv := os.Getenv("ACG_VENV_SEMGREP")
	if venv == "" {
		t.Skip("ACG_VENV_SEMGREP is not set: run scripts/test.sh, or scripts/pyenv.sh semgrep and export ACG_VENV_SEMGREP=$PWD/.venvs/semgrep")
	}
	r, err := FindSemgrep(filepath.Join(venv, "bin", "semgrep"))
	if err != nil {
		t.Fatalf("ACG_VENV_SEMGREP=%s: %v", venv, err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the bundled rules are written there
	return r
}

// bigFile writes a 2,000-line tool module, the size the on-save run is
// measured on.
func bigFile(t testing.TB) (root, rel string) {
	t.Helper()
	root = t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "tools.py"), []byte(gentree.ToolFile(2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, "tools.py"
}

// TestSemgrepRun: the real engine, the bundled rules, the inbox demo: flows
// read through prove/sarif, named semgrep, with the path from the mail
// fetch to the return; progress begins and ends; the version is the pin's.
func TestSemgrepRun(t *testing.T) {
	r := realSemgrep(t)
	root, _ := filepath.Abs("../../testdata/inbox")
	src, _ := os.ReadFile(filepath.Join(root, "tools.py"))
	var progress []prove.Progress
	fls, err := r.Run(context.Background(), prove.Request{Root: root, Files: []string{"tools.py"},
		Source:   func(string) []byte { return src },
		Progress: func(p prove.Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, fl := range fls {
		if fl.Tool != "semgrep" || fl.Source.Loc.Start.Byte < 0 {
			t.Errorf("flow %+v", fl)
		}
		kinds = append(kinds, fl.SourceKind+">"+fl.SinkKind)
		if fl.SourceKind == prove.SourceUntrusted && (fl.Source.Loc.Start.Line != 22 || fl.Sink.Loc.Start.Line != 25 || len(fl.Steps) < 4) {
			t.Errorf("the mail fetch to the return: %+v", fl)
		}
	}
	if strings.Join(kinds, " ") != "untrusted>return param>egress param>egress" {
		t.Errorf("flows %v", kinds)
	}
	if len(progress) != 2 || progress[0].Prover != "semgrep" || !progress[1].Done {
		t.Errorf("progress %+v", progress)
	}
	if v, err := r.Version(context.Background()); err != nil || v != "1.185.0" {
		t.Errorf("version %q %v (scripts/requirements/semgrep.txt pins 1.185.0)", v, err)
	}
}

// running reports the processes whose working directory is dir: the engine
// runs in the scan root.
func running(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []string
	for _, e := range ents {
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestSemgrepCancel: a scan stops when its context ends (the file changed
// again) and when the timeout passes, and the engine's process group is
// gone when Run returns.
func TestSemgrepCancel(t *testing.T) {
	r := realSemgrep(t)
	if _, err := r.core(context.Background()); err != nil { // the engine's path is asked once, not timed here
		t.Fatal(err)
	}
	root, rel := bigFile(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(running(t, root)) == 0 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	if _, err := r.Run(ctx, prove.Request{Root: root, Files: []string{rel}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	if left := running(t, root); len(left) > 0 {
		t.Errorf("processes left after cancel: %v", left)
	}
	r.Timeout = 30 * time.Millisecond
	if _, err := r.Run(context.Background(), prove.Request{Root: root, Files: []string{rel}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("timeout: %v", err)
	}
	if left := running(t, root); len(left) > 0 {
		t.Errorf("processes left after the timeout: %v", left)
	}
}

// BenchmarkSemgrepOnSave2000Lines is one on-save run: the bundled rules on
// one 2,000-line file (the engine's path already known, as in a running
// language server).
func BenchmarkSemgrepOnSave2000Lines(b *testing.B) {
	r := realSemgrep(b)
	if _, err := r.core(context.Background()); err != nil {
		b.Fatal(err)
	}
	root, rel := bigFile(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fls, err := r.Run(context.Background(), prove.Request{Root: root, Files: []string{rel}})
		if err != nil || len(fls) == 0 {
			b.Fatalf("%d flows, %v", len(fls), err)
		}
	}
}

// TestSemgrepNosemgrep: a `# nosemgrep` comment is the scanned
// repository's, and hides nothing from acg (acg's own suppressions are
// `# acg: ignore[...]` with a reason): the engine marks such a result
// ignored, and the runner keeps it.
func TestSemgrepNosemgrep(t *testing.T) {
	r := realSemgrep(t)
	root := t.TempDir()
	src := "import requests\n\n\ndef send(url, body):\n    requests.post(url, data=body)  # nosemgrep\n"
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fls, err := r.Run(context.Background(), prove.Request{Root: root, Files: []string{"a.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fls) != 2 || fls[0].Sink.Loc.Start.Line != 5 {
		t.Fatalf("flows %+v, want both parameters to the post", fls)
	}
}
