package main

import (
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

// procConn joins a process's stdout and stdin into one connection.
type procConn struct {
	io.Reader
	io.WriteCloser
}

// TestBinaryEndToEnd builds acg-lsp and drives it over stdio like an
// editor: diagnostics on the demo, hover, the quick fix applied, the
// diagnostics cleared, shutdown and exit 0.
func TestBinaryEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "acg-lsp")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := lsptest.Fixture(t, "../../testdata/inbox")
	cmd := exec.Command(bin, "--stdio")
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	code := make(chan int, 1)
	go func() {
		err := cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil:
			code <- 0
		case errors.As(err, &ee):
			code <- ee.ExitCode()
		default:
			code <- -1
		}
	}()
	c := lsptest.Connect(t, root, procConn{stdout, stdin}, code, lsptest.Options{Caps: lsptest.RichCaps()})
	c.Initialize()
	p := c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))

	c.Open("agent.py")
	text := c.Text("agent.py")
	at := strings.Index(text, "send_http]")
	h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")}, Position: lsptest.PositionOf(text, at)}})
	if err != nil || h == nil {
		t.Fatalf("hover: %v %v", h, err)
	}
	if mc := h.Contents.(*protocol.MarkupContent); !strings.Contains(mc.Value, "network_egress") {
		t.Errorf("hover on send_http does not show its egress:\n%s", mc.Value)
	}

	acts, err := c.Server.CodeAction(c.Ctx(), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("agent.py")},
		Range: p.Diagnostics[0].Range, Context: protocol.CodeActionContext{Diagnostics: p.Diagnostics}})
	if err != nil || len(acts) == 0 {
		t.Fatalf("code actions: %v %v", acts, err)
	}
	act := acts[0].(*protocol.CodeAction)
	c.Apply(act.Edit)
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })

	if got := c.Shutdown(); got != 0 {
		t.Errorf("exit code %d, want 0; stderr:\n%s", got, stderr.String())
	}
}
