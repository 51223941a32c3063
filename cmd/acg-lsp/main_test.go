package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

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
	bin := buildServer(t)
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
	go func() { code <- exitCode(cmd.Wait()) }()
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

// TestExitWithStdinOpen: after exit the process ends with the
// specification's code although the client keeps stdin open, as Neovim
// 0.7's client.stop() does (shutdown, exit, and the pipe stays open).
func TestExitWithStdinOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildServer(t)
	root := t.TempDir()
	for _, tt := range []struct {
		name     string
		shutdown bool
		want     int
	}{
		{"shutdown then exit", true, 0},
		{"exit without shutdown", false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin)
			cmd.Dir = root
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer stdin.Close() // only after the process ended (or the test failed)
			responses := make(chan int64, 4)
			go readResponses(stdout, responses)
			send := func(msg string) {
				if _, err := fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
					t.Fatalf("write: %v", err)
				}
			}
			awaitResponse := func(id int64) {
				select {
				case got := <-responses:
					if got != id {
						t.Fatalf("response %d, want %d", got, id)
					}
				case <-time.After(30 * time.Second):
					t.Fatalf("no response to request %d", id)
				}
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"` + string(uri.File(root)) + `","capabilities":{}}}`)
			awaitResponse(1)
			send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
			if tt.shutdown {
				send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
				awaitResponse(2)
			}
			send(`{"jsonrpc":"2.0","method":"exit"}`)
			code := make(chan int, 1)
			go func() { code <- exitCode(cmd.Wait()) }()
			select {
			case got := <-code:
				if got != tt.want {
					t.Errorf("exit code %d, want %d", got, tt.want)
				}
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatal("the server is still running 5 s after exit with stdin open")
			}
		})
	}
}

// TestBinarySurvivesBadInput: over stdio, malformed cancels, framing
// errors and an invalid edit are logged and survived: the next request is
// answered, and shutdown then exit end the process with 0.
func TestBinarySurvivesBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildServer(t)
	root := t.TempDir()
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
	var stderr lockedBuilder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	responses := make(chan int64, 16)
	go readResponses(stdout, responses)
	raw := func(b string) {
		if _, err := io.WriteString(stdin, b); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	send := func(msg string) { raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(msg), msg)) }
	awaitResponse := func(id int64) {
		t.Helper()
		select {
		case got := <-responses:
			if got != id {
				t.Fatalf("response %d, want %d", got, id)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no response to request %d; stderr:\n%s", id, stderr.String())
		}
	}
	doc := string(uri.File(filepath.Join(root, "a.py")))
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"` + string(uri.File(root)) + `","capabilities":{}}}`)
	awaitResponse(1)
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":null}}`)
	send(`{"jsonrpc":"2.0","method":"$/cancelRequest"}`)
	raw("Content-Length: abc\r\n\r\n{}")
	raw("Content-Length: -5\r\n\r\n")
	raw("Content-Length: 99999999999999999999\r\n\r\n")
	raw(`Content-Length: 5000` + "\r\n\r\n" + `{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + doc + `","languageId":"python","version":1,"text":"import os\n"}}}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + doc + `","version":2},` +
		`"contentChanges":[{"range":{"start":{"line":-1,"character":-1},"end":{"line":0,"character":0}},"text":""}]}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"` + doc + `"},"position":{"line":0,"character":1}}}`)
	awaitResponse(2)
	send(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	awaitResponse(3)
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	code := make(chan int, 1)
	go func() { code <- exitCode(cmd.Wait()) }()
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit code %d, want 0", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit")
	}
	log := stderr.String()
	for _, want := range []string{"malformed $/cancelRequest", "dropped input: Content-Length \"abc\"", "dropped input: Content-Length \"-5\"",
		"over the limit", "claimed 5000 bytes", "rejected"} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr does not say %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "connection ended") {
		t.Errorf("the connection failed:\n%s", log)
	}
}

// lockedBuilder is a strings.Builder written by the process's stderr copier
// and read by the test.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// readResponses reports the ids of the responses the server writes and
// drains everything else, so that the server never blocks on stdout.
func readResponses(r io.Reader, ids chan<- int64) {
	br := bufio.NewReader(r)
	for {
		n := -1
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		var msg struct {
			ID     *int64 `json:"id"`
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.ID != nil && msg.Method == "" {
			ids <- *msg.ID
		}
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "acg-lsp")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
