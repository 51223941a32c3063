package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/incremental"
)

// Text synchronisation is incremental. These notifications run on the read
// loop, in order: each applies the edit, re-parses the document
// incrementally and swaps the snapshot, then schedules the (debounced)
// analysis.

func (s *Server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	f, rel := s.folderFor(p.TextDocument.URI)
	if f == nil {
		s.logOnce(protocol.MessageTypeInfo, "outside\x00"+string(p.TextDocument.URI), "%s is outside the workspace folders: not analysed", p.TextDocument.URI)
		return nil
	}
	if incremental.Kind(rel) == "" {
		return nil
	}
	f.mu.Lock()
	f.uris[rel] = p.TextDocument.URI
	f.mu.Unlock()
	if _, err := f.ws.Open(context.Background(), rel, p.TextDocument.Version, []byte(p.TextDocument.Text)); err != nil {
		s.logf(protocol.MessageTypeError, "open %s: %v", rel, err)
	}
	f.changed()
	return nil
}

func (s *Server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	f, rel := s.folderFor(p.TextDocument.URI)
	if f == nil || incremental.Kind(rel) == "" {
		return nil
	}
	doc, ok := f.ws.Document(rel)
	if !ok {
		s.logf(protocol.MessageTypeWarning, "change to %s, which is not open: ignored", rel)
		return nil
	}
	if p.TextDocument.Version <= doc.Version {
		s.logf(protocol.MessageTypeWarning, "change to %s: version %d is not newer than %d: ignored", rel, p.TextDocument.Version, doc.Version)
		return nil
	}
	// Positions of each change refer to the text the previous change left.
	enc := s.capsNow().encoding
	text := doc.Text
	edits := make([]incremental.Edit, 0, len(p.ContentChanges))
	for _, c := range p.ContentChanges {
		var e incremental.Edit
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			m := newMapper(text, enc)
			e = incremental.Edit{Start: m.offset(c.Range.Start), End: m.offset(c.Range.End), Text: []byte(c.Text)}
			if e.End < e.Start {
				e.Start, e.End = e.End, e.Start
			}
		case *protocol.TextDocumentContentChangeWholeDocument:
			e = incremental.Edit{Start: 0, End: len(text), Text: []byte(c.Text)}
		default:
			continue
		}
		next := make([]byte, 0, len(text)-(e.End-e.Start)+len(e.Text))
		next = append(append(append(next, text[:e.Start]...), e.Text...), text[e.End:]...)
		text = next
		edits = append(edits, e)
	}
	if _, _, err := f.ws.Change(context.Background(), rel, p.TextDocument.Version, edits); err != nil {
		s.logf(protocol.MessageTypeError, "change %s: %v", rel, err)
	}
	f.changed()
	return nil
}

func (s *Server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	f, rel := s.folderFor(p.TextDocument.URI)
	if f == nil || incremental.Kind(rel) == "" {
		return nil
	}
	if _, err := f.ws.Close(context.Background(), rel); err != nil {
		s.logf(protocol.MessageTypeWarning, "close %s: %v", rel, err)
	}
	f.mu.Lock()
	delete(f.uris, rel)
	f.mu.Unlock()
	f.clear(rel, p.TextDocument.URI)
	f.changed()
	return nil
}

// DidSave runs Opengrep on the saved file, when it is installed. The
// document's text is already analysed; the file on disk is read again when
// the watcher reports it.
func (s *Server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	if f, rel := s.folderFor(p.TextDocument.URI); f != nil {
		f.proveFile(rel)
	}
	return nil
}
