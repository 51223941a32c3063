package lsp_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/lsp"
)

// lockedBuf is a log the server writes while the test reads it.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// initialize sends initialize (with root as the workspace folder, when not
// empty) and initialized.
func (r *rawClient) initialize(root string) {
	r.t.Helper()
	rootURI := "null"
	if root != "" {
		rootURI = `"` + string(uri.File(root)) + `"`
	}
	r.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"processId":null,"rootUri":` + rootURI + `,"capabilities":{}}}`)
	if m := r.answer("init"); m["result"] == nil {
		r.t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
}

// probe sends a request for a method that does not exist and checks that
// it is answered: the server is still serving.
func (r *rawClient) probe(id int) {
	r.t.Helper()
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"acg/noSuchMethod","params":{}}`, id))
	if m := r.answer(id); errCode(m) != int(jsonrpc2.MethodNotFound) {
		r.t.Fatalf("probe %d: %v", id, m)
	}
}

// TestMalformedCancel: a $/cancelRequest without params, without an id, or
// with an id that is neither an integer nor a string is logged and ignored;
// the server goes on serving, and the request it might have named is not
// cancelled. Valid ones, with a string or a number id, still cancel.
func TestMalformedCancel(t *testing.T) {
	var log lockedBuf
	r := startRawWith(t, lsp.Options{Log: &log, NoWatch: true})
	// An empty folder: workspace/diagnostic has nothing to report and waits
	// for the next analysis, which never comes, until it is cancelled.
	r.initialize(t.TempDir())
	r.send(`{"jsonrpc":"2.0","id":"pending","method":"workspace/diagnostic","params":{"previousResultIds":[]}}`)
	for i, params := range []string{"", `{}`, `{"id":null}`, `{"id":1.5}`, `{"id":-0.5e3}`, `{"id":[1]}`, `{"id":{"a":1}}`,
		`{"id":true}`, `"pending"`, `[]`, `null`, `{"id":"pending"`, `{"id":99999999999999999999999}`} {
		msg := `{"jsonrpc":"2.0","method":"$/cancelRequest"`
		if params != "" {
			msg += `,"params":` + params
		}
		r.send(msg + "}")
		r.probe(100 + i)
	}
	// A cancel sent as a request is answered, not fatal either.
	r.send(`{"jsonrpc":"2.0","id":55,"method":"$/cancelRequest","params":{}}`)
	r.answer(55)
	r.probe(56)
	for _, m := range r.skipped {
		if m["id"] == "pending" {
			t.Fatalf("a malformed cancel cancelled the pending request: %v", m)
		}
	}
	if !strings.Contains(log.String(), "malformed $/cancelRequest") {
		t.Errorf("malformed cancels not logged:\n%s", log.String())
	}

	r.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"pending"}}`)
	if m := r.answer("pending"); errCode(m) != int(protocol.CodeRequestCancelled) {
		t.Fatalf("cancel by string id: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":7,"method":"workspace/diagnostic","params":{"previousResultIds":[]}}`)
	r.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}`)
	if m := r.answer(7); errCode(m) != int(protocol.CodeRequestCancelled) {
		t.Fatalf("cancel by number id: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":8,"method":"shutdown"}`)
	if m := r.answer(8); m["error"] != nil {
		t.Fatalf("shutdown: %v", m)
	}
	if strings.Contains(log.String(), "connection ended") {
		t.Errorf("the connection failed:\n%s", log.String())
	}
}

// validNote is a well-framed notification the server ignores.
const validNote = `{"jsonrpc":"2.0","method":"$/acgNothing","params":{}}`

// framingCases are byte sequences with a framing error, each followed in
// the tests by a valid request that must be answered.
var framingCases = []struct{ name, bytes string }{
	{"non-numeric length", "Content-Length: abc\r\n\r\n" + validNote},
	{"negative length", "Content-Length: -5\r\n\r\n" + validNote},
	{"huge length", "Content-Length: 99999999999999999999999999\r\n\r\n" + validNote},
	{"length over the limit", "Content-Length: 104857600\r\n\r\n" + validNote}, // 100 MiB
	{"length over the limit, body sent", "Content-Length: 70000000\r\n\r\n" + strings.Repeat(" ", 70000000)},
	{"more than is sent", "Content-Length: 5000\r\n\r\n" + validNote},
	{"less than is sent", "Content-Length: 10\r\n\r\n" + validNote},
	{"zero length", "Content-Length: 0\r\n\r\n"},
	{"no length", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + validNote},
	{"two lengths", "Content-Length: 5\r\nContent-Length: 52\r\n\r\n" + validNote},
	{"header without a colon", "Content-Length 52\r\n\r\n" + validNote},
	{"no blank line", "Content-Length: 52\r\n" + validNote},
	{"garbage", "\x00\x01\x1b[2Jhello\r\n\r\n{]"},
	{"garbage without a newline", strings.Repeat("x", 100000)},
	{"a header cut short", "Content-Len"},
}

// TestFramingErrors: after each framing error the server logs, drops what
// it could not frame, finds the next message and answers it; all of them
// in a row too.
func TestFramingErrors(t *testing.T) {
	for _, tt := range framingCases {
		t.Run(tt.name, func(t *testing.T) {
			var log lockedBuf
			r := startRawWith(t, lsp.Options{Log: &log, NoWatch: true})
			r.initialize("")
			r.sendBytes(tt.bytes)
			r.probe(1)
			r.probe(2)
			if !strings.Contains(log.String(), "acg-lsp: ") {
				t.Errorf("nothing logged")
			}
		})
	}
	t.Run("all in a row", func(t *testing.T) {
		r := startRawWith(t, lsp.Options{NoWatch: true})
		r.initialize("")
		for i, tt := range framingCases {
			r.sendBytes(tt.bytes)
			r.probe(10 + i)
		}
	})
}

// TestTruncatedAtEOF: the client goes away in the middle of a message: the
// session ends as for a clean end of input, without a connection error.
func TestTruncatedAtEOF(t *testing.T) {
	for _, tail := range []string{"Content-Length: 100\r\n\r\n{\"jsonrpc\":", "Content-Length: 100\r\n", "Content-Le"} {
		var log lockedBuf
		r := startRawWith(t, lsp.Options{Log: &log, NoWatch: true})
		r.initialize("")
		r.sendBytes(tail)
		_ = r.conn.Close()
		select {
		case code := <-r.code:
			if code != 1 {
				t.Errorf("%q: exit code %d, want 1 (no shutdown)", tail, code)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q: the server did not stop at the end of its input", tail)
		}
		if l := log.String(); strings.Contains(l, "connection ended") || !strings.Contains(l, "truncated") {
			t.Errorf("%q: want a note on the truncated message and no connection error; log:\n%s", tail, l)
		}
	}
}

// TestAnyNotification: notifications of every method the server handles,
// with params of every wrong shape, and responses nobody asked for, leave
// the server serving.
func TestAnyNotification(t *testing.T) {
	var log lockedBuf
	r := startRawWith(t, lsp.Options{Log: &log, NoWatch: true})
	root := t.TempDir()
	r.initialize(root)
	doc := `"` + string(uri.File(root+"/a.py")) + `"`
	id := 100
	for _, method := range []string{"initialized", "$/setTrace", "$/progress", "workspace/didChangeConfiguration",
		"workspace/didChangeWatchedFiles", "workspace/didChangeWorkspaceFolders", "textDocument/didOpen", "textDocument/didChange",
		"textDocument/didSave", "textDocument/didClose", "window/workDoneProgress/cancel", "$/unknown"} {
		for _, params := range []string{"", `null`, `{}`, `[]`, `7`, `"x"`, `{"textDocument":{"uri":7}}`,
			`{"textDocument":{"uri":"not a uri","version":2,"text":"x","languageId":"python"},"contentChanges":[{"text":"y"}]}`,
			`{"textDocument":{"uri":"file:///../../etc/passwd","version":2},"contentChanges":[{"range":{},"text":"y"}]}`,
			`{"textDocument":{"uri":` + doc + `,"version":-1,"text":"\u0000\u001b[2J","languageId":"python"},"contentChanges":[null,{"range":null,"text":null}]}`,
			`{"settings":{"acg":{"enabledRules":7,"debounceMs":-5,"proverPaths":[]}}}`,
			`{"changes":[{"uri":7,"type":99}],"event":{"added":[{"uri":"x"}],"removed":null}}`,
			`{"token":{"a":1},"value":{"kind":"end"}}`,
		} {
			msg := `{"jsonrpc":"2.0","method":"` + method + `"`
			if params != "" {
				msg += `,"params":` + params
			}
			r.send(msg + "}")
		}
		r.probe(id)
		id++
	}
	for _, resp := range []string{`{"jsonrpc":"2.0","id":999,"result":null}`, `{"jsonrpc":"2.0","id":"zz","error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, `{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}`, `[]`, `[1,2]`} {
		r.send(resp)
		r.probe(id)
		id++
	}
	if strings.Contains(log.String(), "connection ended") {
		t.Errorf("the connection failed:\n%s", log.String())
	}
}
