package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/lsp"
)

// Fixed is a quick fix as the language server offered and the demo applied it.
type Fixed struct {
	Title string
	Files map[string]string // new texts by path relative to the root
	Diff  string            // the change, as unified-ish line diff for people
}

// QuickFix asks acg's language server (in process, over a pipe, speaking
// LSP as an editor does) for the preferred quick fix of the rule-of-two
// diagnostic on rel, and applies its workspace edit to the files under root.
func QuickFix(ctx context.Context, root, rel string) (*Fixed, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	srv, cli := net.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- lsp.Serve(ctx, srv, lsp.Options{NoWatch: true}) }()
	defer func() { _ = cli.Close(); _ = srv.Close(); <-done }()

	c := &editor{diags: map[uri.URI]*protocol.PublishDiagnosticsParams{}, changed: make(chan struct{}, 1)}
	rpc := jsonrpc2.NewConn(jsonrpc2.NewStream(cli), jsonrpc2.WithCodec(lsp.Codec{}))
	rpc.Go(ctx, protocol.ClientHandler(c, jsonrpc2.MethodNotFoundHandler))
	server := protocol.ServerDispatcher(rpc)

	rootURI := uri.File(root)
	yes := true
	caps := protocol.ClientCapabilities{
		General: &protocol.GeneralClientCapabilities{PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF8, protocol.PositionEncodingKindUTF16}},
		Workspace: &protocol.WorkspaceClientCapabilities{
			WorkspaceEdit: &protocol.WorkspaceEditClientCapabilities{DocumentChanges: &yes},
		},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			CodeAction: &protocol.CodeActionClientCapabilities{
				CodeActionLiteralSupport: protocol.ClientCodeActionLiteralOptions{
					CodeActionKind: protocol.ClientCodeActionKindOptions{ValueSet: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
				},
				IsPreferredSupport: &yes,
			},
		},
	}
	init := &protocol.InitializeParams{Capabilities: caps, RootURI: &rootURI}
	init.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: rootURI, Name: filepath.Base(root)}})
	res, err := server.Initialize(ctx, init)
	if err != nil {
		return nil, fmt.Errorf("language server initialize: %w", err)
	}
	enc := res.Capabilities.PositionEncoding
	if enc == "" {
		enc = protocol.PositionEncodingKindUTF16
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		return nil, err
	}
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	doc := uri.File(filepath.Join(root, filepath.FromSlash(rel)))
	if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: doc, LanguageID: "python", Version: 1, Text: string(text)}}); err != nil {
		return nil, err
	}
	d, err := c.wait(ctx, doc, "rule-of-two")
	if err != nil {
		return nil, err
	}
	acts, err := server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}, Only: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}}})
	if err != nil {
		return nil, fmt.Errorf("codeAction: %w", err)
	}
	var fix *protocol.CodeAction
	for _, a := range acts {
		if ca, ok := a.(*protocol.CodeAction); ok && ca.IsPreferred != nil && *ca.IsPreferred && ca.Edit != nil {
			fix = ca
			break
		}
	}
	if fix == nil {
		return nil, fmt.Errorf("the language server offered no preferred quick fix for rule-of-two on %s (%d actions)", rel, len(acts))
	}
	files, diff, err := apply(root, fix.Edit, enc)
	if err != nil {
		return nil, err
	}
	// The session is over; the deferred close stops the server either way.
	if err := server.Shutdown(ctx); err == nil {
		_ = server.Exit(ctx)
	}
	return &Fixed{Title: fix.Title, Files: files, Diff: diff}, nil
}

// editor is the client side: it records what the server publishes.
type editor struct {
	protocol.UnimplementedClient
	mu      sync.Mutex
	diags   map[uri.URI]*protocol.PublishDiagnosticsParams
	changed chan struct{}
}

func (e *editor) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	e.mu.Lock()
	e.diags[p.URI] = p
	e.mu.Unlock()
	select {
	case e.changed <- struct{}{}:
	default:
	}
	return nil
}

func (e *editor) Configuration(context.Context, *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	return []protocol.LSPAny{protocol.LSPAny("null")}, nil
}

func (e *editor) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}

func (e *editor) Progress(context.Context, *protocol.ProgressParams) error { return nil }

func (e *editor) RegisterCapability(context.Context, *protocol.RegistrationParams) error { return nil }

func (e *editor) LogMessage(context.Context, *protocol.LogMessageParams) error { return nil }

func (e *editor) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }

// wait returns the first diagnostic with code on doc, once published.
func (e *editor) wait(ctx context.Context, doc uri.URI, code string) (protocol.Diagnostic, error) {
	for {
		e.mu.Lock()
		p := e.diags[doc]
		e.mu.Unlock()
		if p != nil {
			for _, d := range p.Diagnostics {
				if s, _ := d.Code.(protocol.String); string(s) == code {
					return d, nil
				}
			}
		}
		select {
		case <-e.changed:
		case <-ctx.Done():
			return protocol.Diagnostic{}, fmt.Errorf("no %s diagnostic on %s: %w", code, doc.FsPath(), ctx.Err())
		}
	}
}

// apply writes a workspace edit to disk, as an editor that saves does.
func apply(root string, we *protocol.WorkspaceEdit, enc protocol.PositionEncodingKind) (map[string]string, string, error) {
	byURI := map[uri.URI][]protocol.TextEdit{}
	for u, es := range we.Changes {
		byURI[u] = append(byURI[u], es...)
	}
	for _, dc := range we.DocumentChanges {
		te, ok := dc.(*protocol.TextDocumentEdit)
		if !ok {
			return nil, "", fmt.Errorf("unexpected document change %T", dc)
		}
		for _, e := range te.Edits {
			switch e := e.(type) {
			case *protocol.TextEdit:
				byURI[te.TextDocument.URI] = append(byURI[te.TextDocument.URI], *e)
			case *protocol.AnnotatedTextEdit:
				byURI[te.TextDocument.URI] = append(byURI[te.TextDocument.URI], e.TextEdit)
			default:
				return nil, "", fmt.Errorf("unexpected edit %T", e)
			}
		}
	}
	out := map[string]string{}
	var diffs []string
	for u, es := range byURI {
		rel, err := filepath.Rel(root, u.FsPath())
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, "", fmt.Errorf("the fix edits %s, outside %s", u.FsPath(), root)
		}
		b, err := os.ReadFile(u.FsPath())
		if err != nil {
			return nil, "", err
		}
		text := string(b)
		sort.SliceStable(es, func(i, j int) bool { return before(es[j].Range.Start, es[i].Range.Start) }) // last first
		for _, e := range es {
			s, err1 := offset(text, e.Range.Start, enc)
			t, err2 := offset(text, e.Range.End, enc)
			if err := errors.Join(err1, err2); err != nil || t < s {
				return nil, "", fmt.Errorf("edit of %s at %v: bad range (%v)", rel, e.Range, err)
			}
			text = text[:s] + e.NewText + text[t:]
		}
		if err := os.WriteFile(u.FsPath(), []byte(text), 0o644); err != nil {
			return nil, "", err
		}
		rel = filepath.ToSlash(rel)
		out[rel] = text
		diffs = append(diffs, lineDiff(rel, string(b), text))
	}
	sort.Strings(diffs)
	return out, strings.Join(diffs, ""), nil
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// offset is the byte offset of an LSP position in text.
func offset(text string, p protocol.Position, enc protocol.PositionEncodingKind) (int, error) {
	off := 0
	for line := uint32(0); line < p.Line; line++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("line %d past the end", p.Line)
		}
		off += i + 1
	}
	end := len(text)
	if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
		end = off + i
	}
	if enc == protocol.PositionEncodingKindUTF8 {
		if off+int(p.Character) > end {
			return 0, fmt.Errorf("column %d past the line's end", p.Character)
		}
		return off + int(p.Character), nil
	}
	units := uint32(0)
	for off < end && units < p.Character {
		r, n := utf8.DecodeRuneInString(text[off:])
		units++
		if r >= 0x10000 {
			units++
		}
		off += n
	}
	return off, nil
}

// lineDiff shows the lines that changed (a longest-common-subsequence
// line diff), each hunk with a line of context, for people.
func lineDiff(rel, a, b string) string {
	x, y := strings.Split(strings.TrimSuffix(a, "\n"), "\n"), strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	// lcs[i][j] is the length of the LCS of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
		line int // in the new text
	}
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], j + 1})
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', y[j], j + 1})
			j++
		default:
			ops = append(ops, op{'-', x[i], j + 1})
			i++
		}
	}
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s (fixed)\n", rel, rel)
	last := -2
	for k, o := range ops {
		near := func(d int) bool { return k+d >= 0 && k+d < len(ops) && ops[k+d].kind != ' ' }
		if o.kind == ' ' && !near(-1) && !near(1) {
			continue
		}
		if k != last+1 {
			fmt.Fprintf(&w, "@@ line %d @@\n", o.line)
		}
		w.WriteString(string(o.kind) + o.text + "\n")
		last = k
	}
	return w.String()
}
