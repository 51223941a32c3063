package lsp

import (
	"context"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/policy"
)

// Command names; editors bind them (docs/lsp.md).
const (
	cmdRescan    = "acg.rescan"
	cmdShowGraph = "acg.showGraph"
	cmdApplyFix  = "acg.applyFix" // the quick fix as a command, for clients without code action literals
)

// Initialize records what the client supports and answers with exactly what
// this server implements.
func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	caps := resolveCaps(p)
	st, _, err := parseSettings(p.InitializationOptions)
	if err != nil {
		s.logf(protocol.MessageTypeWarning, "initializationOptions: %v", err)
	}
	var roots []string
	if folders, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range folders {
			roots = append(roots, f.URI.FsPath())
		}
	}
	if len(roots) == 0 && p.RootURI != nil && *p.RootURI != "" {
		roots = append(roots, p.RootURI.FsPath())
	}
	if rp, ok := p.RootPath.Get(); ok && len(roots) == 0 && rp != "" {
		roots = append(roots, rp)
	}
	s.mu.Lock()
	s.caps, s.settings, s.state = caps, st, stateInitialized
	for _, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			s.folders = append(s.folders, newFolder(s, abs))
		}
	}
	s.mu.Unlock()

	sync := protocol.TextDocumentSyncKindIncremental
	res := &protocol.InitializeResult{
		ServerInfo: protocol.ServerInfo{Name: "acg-lsp", Version: protocol.NewOptional(s.version())},
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: caps.encoding.kind(),
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: ptr(true),
				Change:    &sync,
				Save:      &protocol.SaveOptions{IncludeText: ptr(false)},
			},
			HoverProvider: protocol.Boolean(true),
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
			ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: []string{cmdRescan, cmdShowGraph, cmdApplyFix}},
		},
	}
	if caps.pullDiagnostics {
		res.Capabilities.DiagnosticProvider = &protocol.DiagnosticOptions{
			Identifier:            ptr("acg"),
			InterFileDependencies: true, // a tool's file changes its agent's diagnostics
			WorkspaceDiagnostics:  true,
		}
	}
	return res, nil
}

func (s *Server) version() string {
	if s.opts.Version != "" {
		return s.opts.Version
	}
	return "dev"
}

// Initialized starts the work that talks back to the client: settings,
// watched-file registration, and the first scan of every folder.
func (s *Server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.mu.Lock()
	folders := append([]*folder(nil), s.folders...)
	s.mu.Unlock()
	go func() {
		s.pullSettings(s.ctx)
		s.registerWatchers(s.ctx)
	}()
	checks := ""
	for _, c := range policy.Checks() {
		checks += " " + c.Name
	}
	s.logf(protocol.MessageTypeInfo, "acg-lsp %s: %d folder(s); checks:%s", s.version(), len(folders), checks)
	for _, f := range folders {
		f.start()
	}
	return nil
}

// Shutdown stops background work; only exit is accepted afterwards.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	s.stop()
	return nil
}

// Exit ends the server: code 0 after shutdown, 1 without.
func (s *Server) Exit(ctx context.Context) error {
	s.mu.Lock()
	code := 1
	if s.state == stateShutdown {
		code = 0
	}
	s.mu.Unlock()
	select {
	case s.exit <- code:
	default:
	}
	return nil
}

// folderFor returns the folder holding a document and its path there. With
// no folder at all (a single file opened), the file's directory becomes one.
func (s *Server) folderFor(u uri.URI) (*folder, string) {
	if !u.IsFile() {
		return nil, ""
	}
	path := u.FsPath()
	s.mu.Lock()
	var best *folder
	rel := ""
	for _, f := range s.folders {
		if r, ok := f.rel(path); ok && (best == nil || len(f.root) > len(best.root)) {
			best, rel = f, r
		}
	}
	if best == nil && len(s.folders) == 0 && s.state == stateInitialized && incremental.Kind(filepath.Base(path)) != "" {
		best = newFolder(s, filepath.Dir(path))
		s.folders = append(s.folders, best)
		rel = filepath.Base(path)
		s.mu.Unlock()
		best.start()
		return best, rel
	}
	s.mu.Unlock()
	return best, rel
}
