// Package lsptest runs acg's language server in process, over a pipe, with
// a recording client: what the server pushes (diagnostics, log messages,
// progress, registrations) is kept and can be waited for. It also generates
// synthetic workspaces for benchmarks.
package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/lsp"
)

// Options configure a test session.
type Options struct {
	Caps        protocol.ClientCapabilities
	InitOptions any // initializationOptions
	Config      any // the answer to workspace/configuration, for section "acg"
	Server      lsp.Options
	Timeout     time.Duration // for every wait; default 60s
	NoRoot      bool          // initialize without a root or workspace folders
}

// Client is the editor side of a test session.
type Client struct {
	protocol.UnimplementedClient
	T      testing.TB
	Root   string
	Server protocol.Server
	Conn   jsonrpc2.Conn
	opts   Options
	code   chan int

	mu        sync.Mutex
	changed   chan struct{}
	Diags     []protocol.PublishDiagnosticsParams
	Logs      []protocol.LogMessageParams
	Shown     []protocol.ShowMessageParams // window/showMessage, also in Logs
	Events    []ProgressEvent
	Created   []string // workDoneProgress tokens
	Registers []protocol.Registration
	Refreshes int
	Applied   []protocol.WorkspaceEdit
	versions  map[string]int32
	texts     map[string]string
	enc       protocol.PositionEncodingKind
}

// ProgressEvent is one $/progress notification.
type ProgressEvent struct {
	Token   string
	Kind    string
	Title   string
	Message string
}

// Start runs a server for root (a workspace folder) and a client on the
// other end of a pipe. It does not initialize: call Initialize.
func Start(t testing.TB, root string, o Options) *Client {
	t.Helper()
	srv, cli := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- lsp.Serve(ctx, srv, o.Server) }()
	t.Cleanup(func() {
		cancel()
		_ = srv.Close()
	})
	return Connect(t, root, cli, code, o)
}

// Connect runs the client over conn to a server that reports its exit code
// on code (a server process, for end-to-end tests).
func Connect(t testing.TB, root string, conn io.ReadWriteCloser, code chan int, o Options) *Client {
	t.Helper()
	if o.Timeout == 0 {
		// Generous: waits end as soon as their condition holds, and CI runs
		// every test package at once on two cores.
		o.Timeout = 60 * time.Second
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	c := &Client{T: t, Root: abs, opts: o, code: code, changed: make(chan struct{}),
		versions: map[string]int32{}, texts: map[string]string{}}
	ctx, cancel := context.WithCancel(context.Background())
	// Like protocol.NewClient, but notifications are handled in order on
	// the read loop, as editors do: a notification the server sent before
	// a response is recorded before the response returns.
	rpc := jsonrpc2.NewConn(jsonrpc2.NewStream(conn), jsonrpc2.WithCodec(lsp.Codec{}))
	inner := protocol.ClientHandler(c, jsonrpc2.MethodNotFoundHandler)
	rpc.Go(ctx, protocol.CancelHandler(func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			jsonrpc2.Async(ctx)
		}
		return inner(ctx, req)
	}))
	c.Conn, c.Server = rpc, protocol.ServerDispatcher(rpc)
	t.Cleanup(func() {
		cancel()
		_ = conn.Close()
		select {
		case got := <-c.code:
			c.code <- got
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
	})
	return c
}

// URI is the URI of a path relative to the root.
func (c *Client) URI(rel string) uri.URI {
	return uri.File(filepath.Join(c.Root, filepath.FromSlash(rel)))
}

// Initialize sends initialize and initialized.
func (c *Client) Initialize() *protocol.InitializeResult {
	c.T.Helper()
	p := &protocol.InitializeParams{Capabilities: c.opts.Caps}
	if !c.opts.NoRoot {
		root := uri.File(c.Root)
		p.RootURI = &root
		p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: root, Name: filepath.Base(c.Root)}})
	}
	if c.opts.InitOptions != nil {
		b, _ := json.Marshal(c.opts.InitOptions)
		p.InitializationOptions = protocol.LSPAny(b)
	}
	res, err := c.Server.Initialize(c.ctx(), p)
	if err != nil {
		c.T.Fatalf("initialize: %v", err)
	}
	c.enc = Encoding(res)
	if err := c.Server.Initialized(c.ctx(), &protocol.InitializedParams{}); err != nil {
		c.T.Fatalf("initialized: %v", err)
	}
	return res
}

func (c *Client) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.Timeout)
	c.T.Cleanup(cancel)
	return ctx
}

// Ctx is a context bounded by the session timeout.
func (c *Client) Ctx() context.Context { return c.ctx() }

// Open opens a file of the root with its text on disk.
func (c *Client) Open(rel string) {
	c.T.Helper()
	b, err := os.ReadFile(filepath.Join(c.Root, filepath.FromSlash(rel)))
	if err != nil {
		c.T.Fatal(err)
	}
	c.OpenText(rel, string(b))
}

// OpenText opens a document with the given text.
func (c *Client) OpenText(rel, text string) {
	c.T.Helper()
	c.mu.Lock()
	c.versions[rel] = 1
	c.texts[rel] = text
	c.mu.Unlock()
	err := c.Server.DidOpen(c.ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: c.URI(rel), LanguageID: languageOf(rel), Version: 1, Text: text}})
	if err != nil {
		c.T.Fatalf("didOpen: %v", err)
	}
}

func languageOf(rel string) protocol.LanguageKind {
	switch {
	case strings.HasSuffix(rel, ".py"):
		return protocol.LanguageKindPython
	case strings.HasSuffix(rel, ".ts") || strings.HasSuffix(rel, ".mts") || strings.HasSuffix(rel, ".cts"):
		return protocol.LanguageKindTypeScript
	case strings.HasSuffix(rel, ".tsx"):
		return protocol.LanguageKindTypeScriptReact
	case strings.HasSuffix(rel, ".js") || strings.HasSuffix(rel, ".mjs") || strings.HasSuffix(rel, ".cjs"):
		return protocol.LanguageKindJavaScript
	case strings.HasSuffix(rel, ".jsx"):
		return protocol.LanguageKindJavaScriptReact
	case strings.HasSuffix(rel, ".json"):
		return protocol.LanguageKindJSON
	case strings.HasSuffix(rel, ".md"):
		return protocol.LanguageKindMarkdown
	}
	return protocol.LanguageKindPlaintext
}

// Change sends one didChange with the given changes and returns its version.
func (c *Client) Change(rel string, changes ...protocol.TextDocumentContentChangeEvent) int32 {
	c.T.Helper()
	c.mu.Lock()
	c.versions[rel]++
	v := c.versions[rel]
	c.mu.Unlock()
	c.mu.Lock()
	for _, ch := range changes {
		switch r := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			c.texts[rel] = r.Text
		case *protocol.TextDocumentContentChangePartial:
			t := c.texts[rel]
			s, e := Offset(t, r.Range.Start, c.enc), Offset(t, r.Range.End, c.enc)
			c.texts[rel] = t[:s] + r.Text + t[e:]
		}
	}
	c.mu.Unlock()
	err := c.Server.DidChange(c.ctx(), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: c.URI(rel)}, Version: v},
		ContentChanges: changes})
	if err != nil {
		c.T.Fatalf("didChange: %v", err)
	}
	return v
}

// ChangeRaw sends a didChange whose contentChanges are the JSON given, as
// is: what a typed client cannot send (negative positions, fractions). It
// returns the version it sent; the client's copy of the text is left alone.
func (c *Client) ChangeRaw(rel, contentChanges string) int32 {
	c.T.Helper()
	c.mu.Lock()
	c.versions[rel]++
	v := c.versions[rel]
	c.mu.Unlock()
	u, _ := json.Marshal(string(c.URI(rel)))
	params := fmt.Sprintf(`{"textDocument":{"uri":%s,"version":%d},"contentChanges":%s}`, u, v, contentChanges)
	if err := c.Conn.Notify(c.ctx(), protocol.MethodTextDocumentDidChange, jsonrpc2.RawMessage(params)); err != nil {
		c.T.Fatalf("didChange: %v", err)
	}
	return v
}

// Save sends didSave, with the text when text is not nil; the client's
// copy of the text becomes it.
func (c *Client) Save(rel string, text *string) {
	c.T.Helper()
	if text != nil {
		c.mu.Lock()
		c.texts[rel] = *text
		c.mu.Unlock()
	}
	if err := c.Server.DidSave(c.ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)}, Text: text}); err != nil {
		c.T.Fatalf("didSave: %v", err)
	}
}

// Replace is a whole-document change.
func Replace(text string) protocol.TextDocumentContentChangeEvent {
	return &protocol.TextDocumentContentChangeWholeDocument{Text: text}
}

// Edit is a range change.
func Edit(r protocol.Range, text string) protocol.TextDocumentContentChangeEvent {
	return &protocol.TextDocumentContentChangePartial{Range: r, Text: text}
}

// Close closes a document.
func (c *Client) Close(rel string) {
	c.T.Helper()
	if err := c.Server.DidClose(c.ctx(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)}}); err != nil {
		c.T.Fatalf("didClose: %v", err)
	}
}

// Shutdown sends shutdown and exit and returns the server's exit code.
func (c *Client) Shutdown() int {
	c.T.Helper()
	if err := c.Server.Shutdown(c.ctx()); err != nil {
		c.T.Fatalf("shutdown: %v", err)
	}
	return c.Exit()
}

// Exit sends exit and returns the server's exit code.
func (c *Client) Exit() int {
	c.T.Helper()
	_ = c.Server.Exit(c.ctx())
	select {
	case code := <-c.code:
		c.code <- code
		return code
	case <-time.After(c.opts.Timeout):
		c.T.Fatal("server did not exit")
	}
	return -1
}

// Wait waits until cond (called with the lock held) holds. It looks again
// whenever the server sends something, and every 50 ms for conditions on
// state of the test's own (a stand-in prover's calls).
func (c *Client) Wait(what string, cond func() bool) {
	c.T.Helper()
	deadline := time.After(c.opts.Timeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		c.mu.Lock()
		ok, ch := cond(), c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-deadline:
			c.mu.Lock()
			var logs []string
			for _, l := range c.Logs {
				logs = append(logs, l.Message)
			}
			c.mu.Unlock()
			c.T.Fatalf("timed out waiting for %s; server log:\n%s", what, strings.Join(logs, "\n"))
		}
	}
}

// LastDiags returns the latest diagnostics published for a path (nil if none).
func (c *Client) LastDiags(rel string) *protocol.PublishDiagnosticsParams {
	u := c.URI(rel)
	for i := len(c.Diags) - 1; i >= 0; i-- {
		if c.Diags[i].URI == u {
			return &c.Diags[i]
		}
	}
	return nil
}

// WaitDiags waits for diagnostics on a path that satisfy ok and returns them.
func (c *Client) WaitDiags(rel string, ok func(*protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
	c.T.Helper()
	var got protocol.PublishDiagnosticsParams
	c.Wait("diagnostics on "+rel, func() bool {
		if d := c.LastDiags(rel); d != nil && ok(d) {
			got = *d
			return true
		}
		return false
	})
	return got
}

// Codes lists the diagnostic codes of a publication.
func Codes(p *protocol.PublishDiagnosticsParams) []string {
	var out []string
	for _, d := range p.Diagnostics {
		if s, ok := d.Code.(protocol.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

func (c *Client) record(f func()) {
	c.mu.Lock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// Client methods: what the server sends.

func (c *Client) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	cp, err := protocol.Clone(*p)
	if err != nil {
		return err
	}
	c.record(func() { c.Diags = append(c.Diags, cp) })
	return nil
}

func (c *Client) LogMessage(_ context.Context, p *protocol.LogMessageParams) error {
	c.record(func() {
		c.Logs = append(c.Logs, protocol.LogMessageParams{Type: p.Type, Message: strings.Clone(p.Message)})
	})
	return nil
}

func (c *Client) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	c.record(func() {
		c.Shown = append(c.Shown, protocol.ShowMessageParams{Type: p.Type, Message: strings.Clone(p.Message)})
	})
	return c.LogMessage(context.Background(), &protocol.LogMessageParams{Type: p.Type, Message: p.Message})
}

func (c *Client) WorkDoneProgressCreate(_ context.Context, p *protocol.WorkDoneProgressCreateParams) error {
	c.record(func() { c.Created = append(c.Created, fmt.Sprint(p.Token)) })
	return nil
}

func (c *Client) Progress(_ context.Context, p *protocol.ProgressParams) error {
	var v struct {
		Kind    string `json:"kind"`
		Title   string `json:"title"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(p.Value, &v)
	c.record(func() {
		c.Events = append(c.Events, ProgressEvent{Token: fmt.Sprint(p.Token), Kind: v.Kind, Title: v.Title, Message: v.Message})
	})
	return nil
}

func (c *Client) RegisterCapability(_ context.Context, p *protocol.RegistrationParams) error {
	cp, err := protocol.Clone(*p)
	if err != nil {
		return err
	}
	c.record(func() { c.Registers = append(c.Registers, cp.Registrations...) })
	return nil
}

func (c *Client) Configuration(_ context.Context, p *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	out := make([]protocol.LSPAny, len(p.Items))
	for i := range p.Items {
		b, _ := json.Marshal(c.opts.Config)
		out[i] = protocol.LSPAny(b)
	}
	return out, nil
}

func (c *Client) DiagnosticRefresh(context.Context) error {
	c.record(func() { c.Refreshes++ })
	return nil
}

func (c *Client) ApplyEdit(_ context.Context, p *protocol.ApplyWorkspaceEditParams) (*protocol.ApplyWorkspaceEditResult, error) {
	cp, err := protocol.Clone(p.Edit)
	if err != nil {
		return nil, err
	}
	c.record(func() { c.Applied = append(c.Applied, cp) })
	return &protocol.ApplyWorkspaceEditResult{Applied: true}, nil
}

// Text is the client's text of an open document.
func (c *Client) Text(rel string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.texts[rel]
}

// Encoding is the position encoding the server chose.
func Encoding(res *protocol.InitializeResult) protocol.PositionEncodingKind {
	if res.Capabilities.PositionEncoding == "" {
		return protocol.PositionEncodingKindUTF16
	}
	return res.Capabilities.PositionEncoding
}

// Offset converts a position in text to a byte offset, written apart from
// the server's own conversion so tests check one against the other.
func Offset(text string, p protocol.Position, enc protocol.PositionEncodingKind) int {
	lines := strings.SplitAfter(text, "\n")
	off := 0
	for i := 0; i < int(p.Line) && i < len(lines); i++ {
		off += len(lines[i])
	}
	if int(p.Line) >= len(lines) {
		return len(text)
	}
	line := strings.TrimRight(lines[p.Line], "\r\n")
	units := 0
	for i, r := range line {
		if units >= int(p.Character) {
			return off + i
		}
		switch {
		case enc == protocol.PositionEncodingKindUTF8:
			units += len(string(r))
		case r >= 0x10000:
			units += 2
		default:
			units++
		}
	}
	return off + len(line)
}

// ApplyEdit applies a workspace edit the way an editor does: open
// documents change (a didChange with the edits), other files are opened
// first. It returns the new texts by path.
func (c *Client) Apply(we *protocol.WorkspaceEdit) map[string]string {
	c.T.Helper()
	byURI := map[uri.URI][]protocol.TextEdit{}
	for u, es := range we.Changes {
		byURI[u] = append(byURI[u], es...)
	}
	for _, dc := range we.DocumentChanges {
		if cf, ok := dc.(*protocol.CreateFile); ok {
			// As an editor does: an empty file, unless it exists and the
			// edit says to keep it.
			p := filepath.Join(c.Root, filepath.FromSlash(c.rel(cf.URI)))
			if _, err := os.Stat(p); err == nil && (cf.Options == nil || cf.Options.IgnoreIfExists == nil || !*cf.Options.IgnoreIfExists) {
				c.T.Fatalf("create %s: the file exists", p)
			}
			if _, err := os.Stat(p); err != nil {
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					c.T.Fatal(err)
				}
			}
			continue
		}
		te, ok := dc.(*protocol.TextDocumentEdit)
		if !ok {
			c.T.Fatalf("unexpected document change %T", dc)
		}
		if te.TextDocument.Version != nil {
			rel := c.rel(te.TextDocument.URI)
			c.mu.Lock()
			v := c.versions[rel]
			c.mu.Unlock()
			if *te.TextDocument.Version != v {
				c.T.Fatalf("edit for %s version %d, the document is at %d", rel, *te.TextDocument.Version, v)
			}
		}
		for _, e := range te.Edits {
			switch e := e.(type) {
			case *protocol.TextEdit:
				byURI[te.TextDocument.URI] = append(byURI[te.TextDocument.URI], *e)
			case *protocol.AnnotatedTextEdit:
				byURI[te.TextDocument.URI] = append(byURI[te.TextDocument.URI], e.TextEdit)
			case *protocol.SnippetTextEdit:
				byURI[te.TextDocument.URI] = append(byURI[te.TextDocument.URI], protocol.TextEdit{Range: e.Range, NewText: ExpandSnippet(e.Snippet.Value)})
			}
		}
	}
	out := map[string]string{}
	for u, es := range byURI {
		rel := c.rel(u)
		c.mu.Lock()
		_, open := c.texts[rel]
		c.mu.Unlock()
		if !open {
			c.Open(rel)
		}
		text := c.Text(rel)
		// Apply from the last edit to the first: ranges refer to the text
		// before any of them.
		type span struct {
			s, e int
			t    string
		}
		var spans []span
		for _, e := range es {
			spans = append(spans, span{Offset(text, e.Range.Start, c.enc), Offset(text, e.Range.End, c.enc), e.NewText})
		}
		for i := len(spans) - 1; i >= 0; i-- {
			for j := 0; j < i; j++ {
				if spans[j].s > spans[j+1].s {
					spans[j], spans[j+1] = spans[j+1], spans[j]
				}
			}
		}
		for i := len(spans) - 1; i >= 0; i-- {
			text = text[:spans[i].s] + spans[i].t + text[spans[i].e:]
		}
		c.Change(rel, Replace(text))
		out[rel] = text
	}
	return out
}

// ExpandSnippet is the text an editor leaves when the user accepts every
// placeholder of a snippet as it is: ${1:text} becomes text, $1 nothing.
func ExpandSnippet(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '{':
			j := strings.IndexByte(s[i:], ':')
			k := strings.IndexByte(s[i:], '}')
			if k < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			if j > 0 && j < k {
				b.WriteString(s[i+j+1 : i+k])
			}
			i += k
		case s[i] == '$':
			for i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				i++
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func (c *Client) rel(u uri.URI) string {
	r, err := filepath.Rel(c.Root, u.FsPath())
	if err != nil {
		c.T.Fatal(err)
	}
	return filepath.ToSlash(r)
}

// Fixture copies a fixture directory to a fresh temporary directory, so
// that tests may edit it.
func Fixture(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// PositionOf is the UTF-16 position of a byte offset in text.
func PositionOf(text string, off int) protocol.Position {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	units := 0
	for _, r := range text[start:off] {
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// PositionIn is the position of a byte offset in text, in an encoding.
func PositionIn(text string, off int, enc protocol.PositionEncodingKind) protocol.Position {
	p := PositionOf(text, off)
	if enc == protocol.PositionEncodingKindUTF8 {
		p.Character = uint32(off - (strings.LastIndex(text[:off], "\n") + 1))
	}
	return p
}

// Logged reports whether some log message contains s. Call it inside Wait
// conditions, which run with the client's lock held.
func (c *Client) Logged(s string) bool {
	for _, l := range c.Logs {
		if strings.Contains(l.Message, s) {
			return true
		}
	}
	return false
}

// CodeSet is a publication's codes, sorted and joined by spaces.
func CodeSet(p *protocol.PublishDiagnosticsParams) string {
	cs := Codes(p)
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			if cs[j] < cs[i] {
				cs[i], cs[j] = cs[j], cs[i]
			}
		}
	}
	return strings.Join(cs, " ")
}

// CodesAre waits for exactly these codes (sorted, space-separated).
func CodesAre(want string) func(*protocol.PublishDiagnosticsParams) bool {
	return func(p *protocol.PublishDiagnosticsParams) bool { return CodeSet(p) == want }
}

// InboxAgentCodes are the findings published on testdata/inbox's agent.py;
// toxic-flow is published on tools.py, where the flow ends.
const InboxAgentCodes = "dangerous-chain missing-approval rule-of-two"
