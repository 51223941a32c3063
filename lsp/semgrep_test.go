package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// enginesIn lists the processes whose working directory is dir: the
// engine runs in the folder's root.
func enginesIn(t *testing.T, dir string) []string {
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

// TestSemgrepOnSave runs the real Semgrep ($ACG_VENV_SEMGREP) on save, as
// the editor setting engine: semgrep chooses: each save shows progress; a
// second save cancels the first run (its progress ends "failed", nothing
// is logged, its process group is gone) and the second one's flows are
// stored ("N flows").
func TestSemgrepOnSave(t *testing.T) {
	venv := os.Getenv("ACG_VENV_SEMGREP")
	if venv == "" {
		t.Skip("ACG_VENV_SEMGREP is not set: run scripts/test.sh, or scripts/pyenv.sh semgrep and export ACG_VENV_SEMGREP=$PWD/.venvs/semgrep")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), Timeout: 3 * time.Minute,
		InitOptions: map[string]any{"debounceMs": 10, "engine": "semgrep", "proverPaths": map[string]string{"semgrep": filepath.Join(venv, "bin", "semgrep")}},
		Server:      lsp.Options{ProgressDelay: -1}})
	c.WaitDiags("agent.py", hasDiags)
	c.Open("tools.py")
	save := func() {
		t.Helper()
		if err := c.Server.DidSave(c.Ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("tools.py")}}); err != nil {
			t.Fatal(err)
		}
	}
	save()
	c.Wait("the first run's progress", func() bool { return len(semgrepEnds(c)) == 0 && begun(c) == 1 })
	save()
	c.Wait("both runs to end", func() bool { return len(semgrepEnds(c)) == 2 })
	ends := semgrepEnds(c)
	if ends[0] != "failed" || !strings.HasSuffix(ends[1], " flows") || ends[1] == "0 flows" {
		t.Errorf("progress ends %q, want the cancelled run failed and the second with its flows", ends)
	}
	if c.Logged("acg: semgrep tools.py:") {
		t.Error("a cancelled run was logged as a failure")
	}
	root, _ := filepath.EvalSymlinks(c.Root)
	if left := enginesIn(t, root); len(left) > 0 {
		t.Errorf("engine processes left: %v", left)
	}
}

func begun(c *lsptest.Client) int {
	n := 0
	for _, e := range c.Events {
		if e.Kind == "begin" && e.Title == "acg: semgrep tools.py" {
			n++
		}
	}
	return n
}

// semgrepEnds lists the end messages of the semgrep runs, in order.
func semgrepEnds(c *lsptest.Client) []string {
	tokens := map[string]bool{}
	var out []string
	for _, e := range c.Events {
		switch {
		case e.Kind == "begin" && e.Title == "acg: semgrep tools.py":
			tokens[e.Token] = true
		case e.Kind == "end" && tokens[e.Token]:
			out = append(out, e.Message)
		}
	}
	return out
}
