package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// rawClient speaks the wire protocol byte by byte, to send what a real
// client library would refuse to.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	msgs chan map[string]any
	code chan int

	skipped []map[string]any // messages answer passed over
}

func startRaw(t *testing.T) *rawClient { return startRawWith(t, lsp.Options{}) }

func startRawWith(t *testing.T, o lsp.Options) *rawClient {
	srv, cli := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	r := &rawClient{t: t, conn: cli, msgs: make(chan map[string]any, 100), code: make(chan int, 1)}
	go func() { r.code <- lsp.Serve(ctx, srv, o) }()
	go r.read(bufio.NewReader(cli))
	t.Cleanup(func() { cancel(); cli.Close(); srv.Close() })
	return r
}

// read parses frames as they come: net.Pipe blocks a writer until the
// other side reads.
func (r *rawClient) read(in *bufio.Reader) {
	defer close(r.msgs)
	for {
		n := 0
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			m = map[string]any{"invalid": string(body)}
		}
		r.msgs <- m
	}
}

func (r *rawClient) send(body string) {
	r.t.Helper()
	_ = r.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := fmt.Fprintf(r.conn, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

// sendBytes writes bytes as they are, framing and all.
func (r *rawClient) sendBytes(b string) {
	r.t.Helper()
	_ = r.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(r.conn, b); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

// answer returns the response to request id, skipping the other messages
// (error responses with a null id for what the server could not read).
func (r *rawClient) answer(id any) map[string]any {
	r.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-r.msgs:
			if !ok {
				r.t.Fatalf("the server closed the connection before answering %v", id)
			}
			if _, isNote := m["method"]; !isNote && fmt.Sprint(m["id"]) == fmt.Sprint(id) {
				return m
			}
			r.skipped = append(r.skipped, m)
		case <-timeout:
			r.t.Fatalf("no answer to request %v", id)
		}
	}
}

// next returns the next message that is not a server notification.
func (r *rawClient) next() map[string]any {
	r.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m, ok := <-r.msgs:
			if !ok {
				r.t.Fatal("the server closed the connection")
			}
			if m["invalid"] != nil {
				r.t.Fatalf("server sent invalid JSON %q", m["invalid"])
			}
			if _, isNote := m["method"]; isNote && m["id"] == nil {
				continue // window/logMessage and the like
			}
			return m
		case <-timeout:
			r.t.Fatal("no answer")
		}
	}
}

func errCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	if e == nil {
		return 0
	}
	return int(e["code"].(float64))
}

// TestMalformedMessages: invalid JSON, a message that is not a request,
// and params of the wrong shape each get an error (or are dropped, for a
// notification), and the server goes on serving.
func TestMalformedMessages(t *testing.T) {
	r := startRaw(t)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}`)
	if m := r.next(); errCode(m) != int(jsonrpc2.ServerNotInitialized) || m["id"].(float64) != 1 {
		t.Fatalf("a request before initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{}}}`)
	if m := r.next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	r.send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":{}}}`)
	if m := r.next(); errCode(m) != int(jsonrpc2.InvalidRequest) {
		t.Fatalf("a second initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":4,"method": not json at all`)
	if m := r.next(); errCode(m) != int(jsonrpc2.ParseError) || m["id"] != nil {
		t.Fatalf("invalid JSON: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":5,"result":1,"method":"x"}`)
	if m := r.next(); errCode(m) != int(jsonrpc2.InvalidRequest) || m["id"].(float64) != 5 {
		t.Fatalf("not a request: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":7,"contentChanges":"x"}}`)
	r.send(`{"jsonrpc":"2.0","method":"$/unknownNotification","params":{}}`)
	r.send(`{"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":{"textDocument":[]}}`)
	if m := r.next(); errCode(m) != int(jsonrpc2.InvalidParams) {
		t.Fatalf("bad params: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":7,"method":"acg/noSuchMethod","params":{}}`)
	if m := r.next(); errCode(m) != int(jsonrpc2.MethodNotFound) {
		t.Fatalf("an unknown method: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":8,"method":"shutdown"}`)
	if m := r.next(); m["error"] != nil {
		t.Fatalf("shutdown after all that: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":{}}`)
	if m := r.next(); errCode(m) != int(jsonrpc2.InvalidRequest) {
		t.Fatalf("a request after shutdown: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case code := <-r.code:
		if code != 0 {
			t.Fatalf("exit after shutdown: code %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit")
	}
}

// TestExitWithoutShutdown: exit code 1.
func TestExitWithoutShutdown(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps()})
	if code := c.Exit(); code != 1 {
		t.Fatalf("exit without shutdown: code %d, want 1", code)
	}
}

// TestCapabilitiesAdvertised: exactly what is implemented.
func TestCapabilitiesAdvertised(t *testing.T) {
	_, res := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.UTF8(lsptest.PullCaps())})
	caps := res.Capabilities
	b, _ := protocol.Marshal(caps)
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	want := "codeActionProvider diagnosticProvider executeCommandProvider hoverProvider positionEncoding textDocumentSync"
	if strings.Join(sorted(keys), " ") != want {
		t.Errorf("capabilities %v, want %s", sorted(keys), want)
	}
	if caps.PositionEncoding != protocol.PositionEncodingKindUTF8 {
		t.Errorf("a client offering utf-8 got %q", caps.PositionEncoding)
	}
	if cmds := caps.ExecuteCommandProvider.Commands; strings.Join(cmds, " ") != "acg.rescan acg.showGraph acg.applyFix" {
		t.Errorf("commands %v", cmds)
	}
	if v, _ := res.ServerInfo.Version.Get(); res.ServerInfo.Name != "acg-lsp" || v == "" {
		t.Errorf("server info %+v", res.ServerInfo)
	}
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestNoWorkspaceFolder: a client that opens a single file without a
// folder gets the file's directory analysed.
func TestNoWorkspaceFolder(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), NoRoot: true})
	c.Open("agent.py")
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
}
