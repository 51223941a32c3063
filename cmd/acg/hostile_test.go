package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/internal/outcheck"
	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
	"github.com/acg-dev/acg/report"
)

// The hostile repository (testdata/hostile, README.md there) combines the
// attacks of acg issue 10. These are its secrets: none may appear in any
// output, message or side file.
var hostileSecrets = []string{
	"ghp_abcdefghijklmnopqrstuvwxyz0123456789",     // a bearer token in a Claude Code permission rule
	"sk-HOSTILEargsAAAAAAAAAAAAAAAAAAAAAAAAAAAA",   // an MCP server's args
	"sk-HOSTILEenvBBBBBBBBBBBBBBBBBBBBBBBB",        // an MCP server's env
	"AKIAHOSTILEOUTSIDEROOT0123456789abcdefSECRET", // a file outside the root, reached by symlinks
	// Nothing of a file outside the root is read, so not even its keys
	// appear (an error message quoting a key at fault would show this one).
	"AWS_SECRET_ACCESS_KEY",
}

// outsideSecret is the file outside the root that the fixture's symlinks
// point to.
// Its second line puts the secret where .acg.yaml wants a known value, so
// that a config error quoting the value at fault would leak it.
const outsideSecret = "AWS_SECRET_ACCESS_KEY: AKIAHOSTILEOUTSIDEROOT0123456789abcdefSECRET\n" +
	"severity_threshold: AKIAHOSTILEOUTSIDEROOT0123456789abcdefSECRET\n"

// absEvil is where the fixture's .acg.yaml says its second prover is.
const absEvil = "/tmp/acg-hostile-fixture/evil2.sh"

type hostile struct {
	root, outside string
	marker        string // where evil.sh writes when run
}

// hostileRepo copies the fixture to a temporary root, keeping evil.sh
// executable, adds the symlinks that cannot be checked in (configs and a
// module linked to a file outside the root, a directory linked outside),
// puts the second script at its absolute path, and points the scripts'
// marker into a fresh directory. It changes into the root, so that a
// relative prover path resolved against the working directory finds the
// script too.
func hostileRepo(t *testing.T) *hostile {
	t.Helper()
	h := &hostile{root: t.TempDir(), outside: t.TempDir()}
	h.marker = filepath.Join(t.TempDir(), "ran")
	t.Setenv("ACG_HOSTILE_MARKER", h.marker)
	copyTree(t, "../../testdata/hostile", h.root)
	secret := filepath.Join(h.outside, "secrets.yaml")
	write(t, secret, outsideSecret, 0o644)
	write(t, filepath.Join(h.outside, "leak.py"), "KEY = \"AKIAHOSTILEOUTSIDEROOT0123456789abcdefSECRET\"\n", 0o644)
	write(t, filepath.Join(h.outside, ".mcp.json"), `{"mcpServers": {"x": {"command": "AKIAHOSTILEOUTSIDEROOT0123456789abcdefSECRET"}}}`, 0o644)
	for link, target := range map[string]string{
		".cursor/mcp.json":            secret,
		".claude/settings.local.json": secret,
		"crew/config/agents.yaml":     secret,
		"leak.py":                     filepath.Join(h.outside, "leak.py"),
		"linked":                      h.outside,
	} {
		p := filepath.Join(h.root, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	evil, err := os.ReadFile(filepath.Join(h.root, "evil.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(absEvil), 0o755); err == nil {
		write(t, absEvil, string(evil), 0o755)
		t.Cleanup(func() { _ = os.RemoveAll(filepath.Dir(absEvil)) })
	} else {
		t.Logf("cannot place %s (%v): only the relative prover path is tried", absEvil, err)
	}
	t.Chdir(h.root)
	return h
}

// ran fails the test if either script left its marker, naming the first
// few runs, and removes the marker for the next step.
func (h *hostile) ran(t *testing.T, when string) {
	t.Helper()
	for _, m := range []string{h.marker, filepath.Join(h.root, "HOSTILE_SCRIPT_RAN")} {
		b, err := os.ReadFile(m)
		if err != nil {
			continue
		}
		runs := strings.Split(strings.TrimSpace(string(b)), "\n")
		for i, r := range runs {
			runs[i] = strings.Join(strings.Fields(r)[:min(3, len(strings.Fields(r)))], " ") + " …"
		}
		t.Errorf("%s: a program named by the scanned repository ran %d times: %s", when, len(runs), strings.Join(runs, "; "))
		_ = os.Remove(m)
	}
}

// TestHostileRepositoryCLI scans the hostile repository in every format
// with every side file, as `acg scan .` run inside it: no program of the
// repository runs, no secret leaks, every output passes outcheck, and the
// toxic flow is still reported (exit 1).
func TestHostileRepositoryCLI(t *testing.T) {
	h := hostileRepo(t)
	side := t.TempDir()
	for _, format := range []string{"text", "json", "sarif", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			files := map[string]string{
				outcheck.FormatGraph: filepath.Join(side, format+".graph.json"),
				outcheck.FormatSVG:   filepath.Join(side, format+".svg"),
				outcheck.FormatCedar: filepath.Join(side, format+".cedar"),
			}
			stdout, stderr, code := run(t, ".", "--format", format,
				"--graph", files[outcheck.FormatGraph], "--svg", files[outcheck.FormatSVG], "--cedar", files[outcheck.FormatCedar])
			h.ran(t, "acg scan --format "+format)
			outputs := map[string][]byte{format: []byte(stdout), "stderr": []byte(stderr)}
			for f, p := range files {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Errorf("side file %s: %v", f, err)
				}
				outputs[f] = b
			}
			for name, b := range outputs {
				if err := outcheck.NoSecrets(b, hostileSecrets...); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				check := name
				if name == "stderr" {
					check = outcheck.FormatText
				}
				if err := outcheck.Check(check, b); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			if code != exitFindings {
				t.Errorf("exit %d, want %d (the toxic flow at or above high); stderr:\n%q", code, exitFindings, stderr)
			}
			if format == "json" {
				var doc report.Document
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatal(err)
				}
				// Clean outputs prove nothing if the hostile names never
				// reached them: the agent and its findings must be there.
				if len(doc.Agents) == 0 || len(doc.Findings) == 0 {
					t.Errorf("%d agents, %d findings: the hostile code was not analysed", len(doc.Agents), len(doc.Findings))
				}
			}
		})
	}
}

// TestHostileConfigSymlink: a .acg.yaml that is a symlink to a file
// outside the root is not read, so nothing of that file (a secret where a
// key should be) reaches any output. Whether the scan then runs without a
// config (exit 1, the findings) or refuses the unreadable config (exit 2)
// is the implementation's choice; leaking and running are not.
func TestHostileConfigSymlink(t *testing.T) {
	h := hostileRepo(t)
	cfg := filepath.Join(h.root, ".acg.yaml")
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(h.outside, "secrets.yaml"), cfg); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		stdout, stderr, code := run(t, ".", "--format", format)
		h.ran(t, "acg scan with a symlinked .acg.yaml")
		for name, b := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if err := outcheck.NoSecrets([]byte(b), hostileSecrets...); err != nil {
				t.Errorf("%s %s: %v", format, name, err)
			}
		}
		if code != exitFindings && code != exitUsage {
			t.Errorf("%s: exit %d; stderr:\n%q", format, code, stderr)
		}
	}
}

// TestHostileRepositoryLSP opens the hostile repository in the language
// server, as an editor does: it opens every file, waits for the findings,
// saves a module (on-save provers), and checks that no program ran, that no
// secret is in anything the server sent (every byte on the wire and its
// log), that its log lines are clean text, and that it still answers.
func TestHostileRepositoryLSP(t *testing.T) {
	h := hostileRepo(t)
	srv, cli := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	var serverLog syncBuffer
	go func() { code <- lsp.Serve(ctx, srv, lsp.Options{Log: &serverLog, NoWatch: true, ProgressDelay: -1}) }()
	t.Cleanup(func() {
		cancel()
		_ = srv.Close()
	})
	wire := &wireRecorder{ReadWriteCloser: cli}
	c := lsptest.Connect(t, h.root, wire, code, lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 0}})
	c.Initialize()
	for _, rel := range []string{"agent.py", "tools.py", ".acg.yaml", ".mcp.json", ".claude/settings.json"} {
		c.Open(rel)
	}
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	for _, rel := range []string{"tools.py", "agent.py"} {
		if err := c.Server.DidSave(c.Ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)}}); err != nil {
			t.Fatalf("didSave: %v", err)
		}
	}
	// A prover run on save is asynchronous: give one time to start, and
	// end, before looking for its marker.
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(h.marker); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Still serving: a request after all of the above gets its answer.
	if _, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")}, Position: protocol.Position{Line: 5, Character: 2}}}); err != nil {
		t.Errorf("the server no longer answers: hover: %v", err)
	}
	h.ran(t, "acg-lsp after open and save")
	// The user is told what the repository asked for and acg ignored.
	c.Wait("a warning about the ignored prover paths", func() bool {
		for _, m := range c.Shown {
			if m.Type == protocol.MessageTypeWarning && strings.Contains(m.Message, "provers.opengrep.path") {
				return true
			}
		}
		return false
	})
	if err := outcheck.NoSecrets(wire.received(), hostileSecrets...); err != nil {
		t.Errorf("sent by the server: %v", err)
	}
	if err := outcheck.NoSecrets(serverLog.bytes(), hostileSecrets...); err != nil {
		t.Errorf("the server's log: %v", err)
	}
	if err := outcheck.Text(serverLog.bytes()); err != nil {
		t.Errorf("the server's log: %v", err)
	}
	if got := c.Shutdown(); got != 0 {
		t.Errorf("exit code %d after shutdown", got)
	}
}

// wireRecorder keeps every byte the server sends to the client.
type wireRecorder struct {
	io.ReadWriteCloser
	mu  sync.Mutex
	got bytes.Buffer
}

func (r *wireRecorder) Read(p []byte) (int, error) {
	n, err := r.ReadWriteCloser.Read(p)
	r.mu.Lock()
	r.got.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

func (r *wireRecorder) received() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.got.Bytes())
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// copyTree copies a directory, keeping each file's permissions (evil.sh
// stays executable: the test must show it is not run, not that it cannot be).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}
