package lsp_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// The programs the server runs come from the editor's settings, the
// environment, the user config file and PATH, never from the .acg.yaml of
// the folder it serves (docs/security.md).

func writeExec(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func isolateProvers(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in programs are shell scripts")
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("ACG_CONFIG", "")
	t.Setenv("ACG_OPENGREP", "")
	t.Setenv("ACG_CODEQL", "")
}

// settle returns once the server has handled every notification sent
// before it: a request is answered after them.
func settle(t *testing.T, c *lsptest.Client) {
	t.Helper()
	if _, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("tools.py")}}}); err != nil {
		t.Fatal(err)
	}
}

func saveFile(t *testing.T, c *lsptest.Client, rel string) {
	t.Helper()
	if err := c.Server.DidSave(c.Ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)}}); err != nil {
		t.Fatal(err)
	}
}

// ended reports whether a progress whose title starts with title ended.
// Call it inside Wait conditions.
func ended(c *lsptest.Client, title string) bool {
	tokens := map[string]bool{}
	for _, e := range c.Events {
		switch {
		case e.Kind == "begin" && strings.HasPrefix(e.Title, title):
			tokens[e.Token] = true
		case e.Kind == "end" && tokens[e.Token]:
			return true
		}
	}
	return false
}

// TestRepoConfigRunsNoProgram: the folder's .acg.yaml names programs
// (relative to the server's directory, and absolute); neither the scan
// nor a save runs them, and the server says once, in a warning the user
// sees, what it ignored.
func TestRepoConfigRunsNoProgram(t *testing.T) {
	isolateProvers(t)
	repo, outside := lsptest.Fixture(t, "../testdata/lsp/hidden-flow"), t.TempDir()
	marker := filepath.Join(outside, "ran")
	evil := "echo \"$0 $*\" >> '" + marker + "'\n"
	writeExec(t, filepath.Join(repo, "evil.sh"), evil)
	writeExec(t, filepath.Join(outside, "evil2.sh"), evil)
	if err := os.WriteFile(filepath.Join(repo, ".acg.yaml"), []byte("provers:\n  opengrep: {path: ./evil.sh}\n  codeql: {path: "+filepath.Join(outside, "evil2.sh")+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	c := lsptest.Start(t, repo, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10},
		Server: lsp.Options{ProgressDelay: -1}})
	c.Initialize()
	c.Wait("CodeQL after the scan, or why not", func() bool { return ended(c, "acg: codeql") || c.Logged("codeql is not used") })
	c.Open("tools.py")
	saveFile(t, c, "tools.py")
	c.Wait("Opengrep on save, or why not", func() bool { return ended(c, "acg: opengrep") || c.Logged("opengrep is not used") })
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a program named by the folder's .acg.yaml ran:\n%s", b)
	}
	warned := func() []protocol.ShowMessageParams {
		var out []protocol.ShowMessageParams
		for _, m := range c.Shown {
			if m.Type == protocol.MessageTypeWarning && strings.Contains(m.Message, ".acg.yaml") {
				out = append(out, m)
			}
		}
		return out
	}
	c.Wait("a warning about what .acg.yaml asked for", func() bool { return len(warned()) > 0 })
	saveFile(t, c, "tools.py")
	settle(t, c)
	var shown []protocol.ShowMessageParams
	c.Wait("a copy", func() bool { shown = warned(); return true })
	if len(shown) != 1 {
		t.Fatalf("%d warnings, want one per folder: %+v", len(shown), shown)
	}
	msg := shown[0].Message
	for _, want := range []string{"provers.opengrep.path", "provers.codeql.path", "acg never runs a program named by the repository", "proverPaths"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the warning lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "evil") {
		t.Errorf("the warning quotes the repository's value: %s", msg)
	}
}

// TestUserNamesProgramsLSP: the editor's proverPaths and the user config
// file name the Opengrep that runs on save.
func TestUserNamesProgramsLSP(t *testing.T) {
	for _, via := range []string{"editor", "user config"} {
		t.Run(via, func(t *testing.T) {
			isolateProvers(t)
			repo, tools := lsptest.Fixture(t, "../testdata/lsp/hidden-flow"), t.TempDir()
			prog, log := filepath.Join(tools, "og"), filepath.Join(tools, "og.log")
			writeExec(t, prog, `echo "$*" >> '`+log+`'
echo '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Opengrep OSS"}},"results":[]}]}'
`)
			// The repository may still ask for opengrep by name, with a path
			// the server ignores.
			if err := os.WriteFile(filepath.Join(repo, ".acg.yaml"), []byte("provers: {opengrep: {path: ./og}}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			init := map[string]any{"debounceMs": 10}
			if via == "editor" {
				init["proverPaths"] = map[string]string{"opengrep": prog}
			} else {
				cfg := filepath.Join(tools, "config.yaml")
				if err := os.WriteFile(cfg, []byte("provers: {opengrep: {path: og}}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				// A bare name in the user config is looked up on PATH.
				t.Setenv("PATH", tools)
				t.Setenv("ACG_CONFIG", cfg)
			}
			c := lsptest.Start(t, repo, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: init, Server: lsp.Options{ProgressDelay: -1}})
			c.Initialize()
			c.Open("tools.py")
			saveFile(t, c, "tools.py")
			c.Wait("the user's opengrep on save", func() bool { return ended(c, "acg: opengrep") })
			b, _ := os.ReadFile(log)
			if !strings.Contains(string(b), "scan ") || !strings.HasSuffix(strings.TrimSpace(string(b)), " tools.py") {
				t.Errorf("the user's opengrep did not scan tools.py; its log:\n%s", b)
			}
		})
	}
}
