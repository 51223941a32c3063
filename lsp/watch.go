package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// watchGlobs are the files whose changes on disk matter. The server also
// watches with fsnotify; both paths end in Workspace.Refresh, which ignores
// a file whose content did not change.
// Files under .claude/ may be hook scripts in any language; *.toml is
// Codex's .codex/config.toml.
var watchGlobs = []string{"**/*.py", "**/*.pyi", "**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts", "**/*.js", "**/*.jsx", "**/*.mjs", "**/*.cjs", "**/*.json", "**/*.md", "**/*.yaml", "**/*.yml", "**/*.toml", "**/.claude/**"}

// registerWatchers asks the client to report file changes, when it can
// register workspace/didChangeWatchedFiles dynamically.
func (s *Server) registerWatchers(ctx context.Context) {
	if !s.capsNow().watchedFilesDynamic {
		return
	}
	type watcher struct {
		GlobPattern string `json:"globPattern"`
	}
	ws := make([]watcher, len(watchGlobs))
	for i, g := range watchGlobs {
		ws[i] = watcher{GlobPattern: g}
	}
	opts, _ := json.Marshal(map[string]any{"watchers": ws})
	err := s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "acg-watched-files", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: protocol.LSPAny(opts)}}})
	if err != nil {
		s.logf(protocol.MessageTypeWarning, "client/registerCapability: %v", err)
	}
}

// DidChangeWatchedFiles hears files changed on disk from the client.
func (s *Server) DidChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	byFolder := map[*folder][]string{}
	for _, ev := range p.Changes {
		if f, rel := s.folderFor(ev.URI); f != nil {
			byFolder[f] = append(byFolder[f], rel)
		}
	}
	for f, rels := range byFolder {
		f.diskChanged(rels)
	}
	return nil
}
