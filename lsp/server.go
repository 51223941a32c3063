// Package lsp is acg's language server: it keeps a live capability graph of
// the workspace (package incremental), publishes the findings as
// diagnostics with every path step as related information, shows a tool's
// effect labels and an agent's reach on hover, and offers the approval-gate
// quick fix (package lsp/gate) and the inline suppression. It speaks LSP
// 3.18 through go.lsp.dev/protocol and go.lsp.dev/jsonrpc2.
//
// Handlers decode, take the current analysis and call a feature; work that
// takes time runs in goroutines of our own (one analysis per workspace
// folder, debounced and cancelled when stale), so every request is answered
// promptly and notifications keep their order. One file per method family:
// lifecycle.go, text_sync.go, diagnostics.go, hover.go, code_action.go,
// commands.go, progress.go, settings.go, watch.go, provers.go.
package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/provers"
)

// Options configure a server. The zero value serves an editor.
type Options struct {
	// Log receives the server's log lines (stderr for the binary); the
	// client gets them too, as window/logMessage.
	Log io.Writer
	// ProgressDelay is how long a workspace scan runs before it reports
	// $/progress; 0 means 200ms, negative means at once (tests).
	ProgressDelay time.Duration
	// NoWatch turns off the fsnotify watcher (tests that drive disk changes
	// through didChangeWatchedFiles).
	NoWatch bool
	// Version is reported in serverInfo.
	Version string
	// Provers, when set, replaces the discovery of the external provers
	// (Opengrep, CodeQL) for tests that cannot install them.
	Provers func(provers.Settings) []prove.Prover
}

type lifecycle uint8

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// Server implements protocol.Server. Methods it does not override answer
// MethodNotFound (UnimplementedServer).
type Server struct {
	protocol.UnimplementedServer
	opts   Options
	client protocol.Client
	ctx    context.Context // lives as long as the connection
	exit   chan int

	mu       sync.Mutex
	state    lifecycle
	caps     clientCaps
	settings Settings
	folders  []*folder
	logged   map[string]bool // messages said once per session
	updated  chan struct{}   // closed and replaced when any folder finishes an analysis
}

// Serve runs a server on a connection until the client sends exit or goes
// away, and returns the process exit code the specification asks for: 0
// after shutdown then exit, 1 otherwise. After exit it returns promptly even
// when the connection cannot be closed (a stdin the client keeps open).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	if opts.ProgressDelay == 0 {
		opts.ProgressDelay = 200 * time.Millisecond
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &Server{opts: opts, ctx: ctx, exit: make(chan int, 1), logged: map[string]bool{}, updated: make(chan struct{})}
	stream := newStream(rwc, func(m string) { s.logf(protocol.MessageTypeWarning, "%s", m) })
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(Codec{}))
	s.client = protocol.ClientDispatcher(conn)
	conn.Go(ctx, s.handler())
	code := 1
	select {
	case code = <-s.exit:
	case <-conn.Done():
		if err := conn.Err(); err != nil {
			s.logf(protocol.MessageTypeError, "connection ended: %v", err)
		}
	case <-ctx.Done():
	}
	cancel()
	s.stop()
	// Close waits for the read loop, and a client may keep our stdin open
	// after exit (Neovim 0.7's client.stop()), leaving it blocked in a read
	// nothing interrupts: the process must end anyway.
	closed := make(chan struct{})
	go func() {
		_ = conn.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(closeWait):
	}
	return code
}

// closeWait bounds how long Serve waits for the connection to close.
const closeWait = 500 * time.Millisecond

// handler wraps the protocol dispatcher: the lifecycle rules, panics
// answered instead of crashing, notifications handled in order on the read
// loop, requests released to run concurrently, $/cancelRequest handled
// here. The guard is the outermost layer: whatever a message holds, nothing
// below it can end the connection (go.lsp.dev's CancelHandler fails it on a
// cancel with a malformed id, so we do not use it).
func (s *Server) handler() jsonrpc2.Handler {
	inner, cancel := jsonrpc2.CancelHandler(protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler))
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		call := req.IsCall()
		if call {
			jsonrpc2.Async(ctx)
		}
		method := req.Method()
		defer func() {
			if v := recover(); v != nil {
				s.logf(protocol.MessageTypeError, "internal error in %s: %v\n%s", method, v, debug.Stack())
				result, err = nil, nil
				if call {
					err = jsonrpc2.Errorf(jsonrpc2.InternalError, "acg-lsp: internal error in %s: %v", method, v)
				}
			}
		}()
		if method == protocol.MethodCancelRequest {
			s.cancelRequest(req.Params(), cancel)
			return nil, nil
		}
		if e := s.admit(method, call); e != nil {
			if call {
				return nil, e
			}
			return nil, nil
		}
		if method == protocol.MethodTextDocumentDidChange {
			err = s.didChangeJSON(req.Params())
		} else {
			result, err = inner(ctx, req)
		}
		if !call && err != nil {
			// A notification error would end the connection (jsonrpc2 fails
			// it): log and carry on.
			s.logf(protocol.MessageTypeWarning, "%s: %v", method, err)
			return nil, nil
		}
		if err != nil && errors.Is(err, jsonrpc2.ErrParse) && !strings.HasPrefix(method, "$/") {
			// The dispatcher reports undecodable params as a parse error;
			// the JSON was fine, the params were not.
			err = jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", method, err)
		}
		return result, err
	}
}

// cancelRequest cancels the request a $/cancelRequest names. The
// specification's id is an integer or a string; anything else (no params,
// no id, null, a fraction) names no request: logged and ignored.
func (s *Server) cancelRequest(params []byte, cancel func(jsonrpc2.ID)) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err == nil {
		raw := bytes.TrimSpace(p.ID)
		var str string
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			cancel(jsonrpc2.NewNumberID(n))
			return
		} else if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &str) == nil {
			cancel(jsonrpc2.NewStringID(str))
			return
		}
	}
	s.logf(protocol.MessageTypeWarning, "malformed $/cancelRequest (the id must be an integer or a string): ignored")
}

// admit applies the lifecycle: nothing but initialize before it, nothing
// but exit after shutdown.
func (s *Server) admit(method string, call bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case method == protocol.MethodExit:
		return nil
	case s.state == stateNew && method != protocol.MethodInitialize:
		return jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "acg-lsp: not initialized")
	case s.state != stateNew && method == protocol.MethodInitialize:
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "acg-lsp: initialize was already received")
	case s.state == stateShutdown:
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "acg-lsp: shutting down")
	}
	return nil
}

func (s *Server) capsNow() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

func (s *Server) settingsNow() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

func (s *Server) updatedChan() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.updated
}

func (s *Server) notifyUpdated() {
	s.mu.Lock()
	close(s.updated)
	s.updated = make(chan struct{})
	s.mu.Unlock()
}

// logf writes a log line to the log writer and to the client. Its
// arguments often name files and things of the scanned repository, so
// they are made safe for a terminal (termsafe.Sprintf): stderr is one.
func (s *Server) logf(typ protocol.MessageType, format string, args ...any) {
	msg := termsafe.Sprintf(format, args...)
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "acg-lsp: %s\n", msg)
	}
	if s.client != nil {
		_ = s.client.LogMessage(s.ctx, &protocol.LogMessageParams{Type: typ, Message: msg})
	}
}

// logOnce logs a message the first time it is seen.
func (s *Server) logOnce(typ protocol.MessageType, key, format string, args ...any) {
	s.mu.Lock()
	seen := s.logged[key]
	s.logged[key] = true
	s.mu.Unlock()
	if !seen {
		s.logf(typ, format, args...)
	}
}

// stop ends every background activity.
func (s *Server) stop() {
	s.mu.Lock()
	folders := append([]*folder(nil), s.folders...)
	s.mu.Unlock()
	for _, f := range folders {
		f.close()
	}
}
