package opengrep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/acg-dev/acg/prove"
)

// realSemgrep is the Semgrep that scripts/pyenv.sh installed
// ($ACG_VENV_SEMGREP, exported by scripts/test.sh); the test skips
// without it.
func realSemgrep(t testing.TB) *Runner {
	t.Helper()
	venv := os.Getenv("ACG_VENV_SEMGREP")
	if venv == "" {
		t.Skip("ACG_VENV_SEMGREP is not set: run scripts/test.sh, or scripts/pyenv.sh semgrep and export ACG_VENV_SEMGREP=.venvs/semgrep")
	}
	r, err := FindSemgrep(filepath.Join(venv, "bin", "semgrep"))
	if err != nil {
		t.Fatalf("ACG_VENV_SEMGREP=%s: %v", venv, err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the bundled rules are written there
	return r
}

func render(fls []prove.Flow) []string {
	var out []string
	for _, fl := range fls {
		out = append(out, fmt.Sprintf("%s %s>%s %s:%d:%d>%d:%d (%d steps)", fl.Tool, fl.SourceKind, fl.SinkKind, fl.Source.Loc.File,
			fl.Source.Loc.Start.Line, fl.Source.Loc.Start.Col, fl.Sink.Loc.Start.Line, fl.Sink.Loc.Start.Col, len(fl.Steps)))
	}
	sort.Strings(out)
	return out
}

func TestSemgrepInbox(t *testing.T) {
	r := realSemgrep(t)
	root, _ := filepath.Abs("../../testdata/inbox")
	fls, err := r.Run(context.Background(), prove.Request{Root: root, Files: []string{"tools.py", "agent.py"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range render(fls) {
		t.Log(l)
	}
}
