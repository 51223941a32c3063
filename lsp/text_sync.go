package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

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
	delete(f.unsynced, rel) // the editor's text, whole
	f.mu.Unlock()
	if _, err := f.ws.Open(context.Background(), rel, p.TextDocument.Version, []byte(p.TextDocument.Text)); err != nil {
		s.logf(protocol.MessageTypeError, "open %s: %v", rel, err)
	}
	f.changed()
	return nil
}

// textChange is one content change of a didChange: the whole text, or a
// range of the text the previous change left and what replaces it.
type textChange struct {
	whole      bool
	start, end protocol.Position
	text       string
}

// DidChange is didChange with params the protocol package decoded; the
// server's handler decodes them itself (didChangeJSON), this serves direct
// callers.
func (s *Server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	changes := make([]textChange, 0, len(p.ContentChanges))
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			changes = append(changes, textChange{start: c.Range.Start, end: c.Range.End, text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, textChange{whole: true, text: c.Text})
		}
	}
	s.didChange(p.TextDocument.URI, p.TextDocument.Version, changes, "")
	return nil
}

// didChangeJSON decodes didChange params itself. The protocol package
// decodes a change whose range does not decode (a negative position) as a
// whole-document change, which replaced the document with the change's
// text: here a change with a range is a range change, and a range that is
// not two positions of non-negative integers makes the change invalid.
func (s *Server) didChangeJSON(params []byte) error {
	var p struct {
		TextDocument struct {
			URI     uri.URI `json:"uri"`
			Version int32   `json:"version"`
		} `json:"textDocument"`
		ContentChanges []json.RawMessage `json:"contentChanges"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	changes, invalid := decodeChanges(p.ContentChanges)
	s.didChange(p.TextDocument.URI, p.TextDocument.Version, changes, invalid)
	return nil
}

// decodeChanges decodes content changes; invalid says what is wrong with
// the first one that is not a change.
func decodeChanges(raw []json.RawMessage) (changes []textChange, invalid string) {
	for i, r := range raw {
		var c struct {
			Range json.RawMessage `json:"range"`
			Text  *string         `json:"text"`
		}
		if err := json.Unmarshal(r, &c); err != nil {
			return nil, fmt.Sprintf("change %d is not a change (%v)", i+1, err)
		}
		if c.Text == nil {
			return nil, fmt.Sprintf("change %d has no text", i+1)
		}
		if len(c.Range) == 0 || string(c.Range) == "null" {
			changes = append(changes, textChange{whole: true, text: *c.Text})
			continue
		}
		var rg struct {
			Start, End struct{ Line, Character json.Number }
		}
		if err := json.Unmarshal(c.Range, &rg); err != nil {
			return nil, fmt.Sprintf("change %d: the range is not a range (%v)", i+1, err)
		}
		tc := textChange{text: *c.Text}
		for _, p := range []struct {
			line, char json.Number
			to         *protocol.Position
		}{{rg.Start.Line, rg.Start.Character, &tc.start}, {rg.End.Line, rg.End.Character, &tc.end}} {
			line, err1 := strconv.ParseUint(string(p.line), 10, 32)
			char, err2 := strconv.ParseUint(string(p.char), 10, 32)
			if err1 != nil || err2 != nil {
				return nil, fmt.Sprintf("change %d: position %s:%s is not two non-negative integers", i+1, orMissing(p.line), orMissing(p.char))
			}
			*p.to = protocol.Position{Line: uint32(line), Character: uint32(char)}
		}
		changes = append(changes, tc)
	}
	return changes, ""
}

func orMissing(n json.Number) string {
	if n == "" {
		return "(missing)"
	}
	return string(n)
}

// applyChanges turns changes into edits of text, each in the text the
// previous one left, and returns the final text. What the specification
// tolerates is applied: a character past the end of its line is the end of
// the line, a line past the last line is the end of the text. A range whose
// start comes after its end is an error, for the whole list.
func applyChanges(text []byte, enc encoding, changes []textChange) ([]incremental.Edit, []byte, error) {
	edits := make([]incremental.Edit, 0, len(changes))
	for i, c := range changes {
		e := incremental.Edit{Start: 0, End: len(text), Text: []byte(c.text)}
		if !c.whole {
			if c.start.Line > c.end.Line || c.start.Line == c.end.Line && c.start.Character > c.end.Character {
				return nil, nil, fmt.Errorf("change %d: the range %d:%d-%d:%d starts after its end", i+1,
					c.start.Line, c.start.Character, c.end.Line, c.end.Character)
			}
			m := newMapper(text, enc)
			e.Start, e.End = m.offset(c.start), m.offset(c.end)
		}
		next := make([]byte, 0, len(text)-(e.End-e.Start)+len(e.Text))
		text = append(append(append(next, text[:e.Start]...), e.Text...), text[e.End:]...)
		edits = append(edits, e)
	}
	return edits, text, nil
}

// didChange applies a didChange. A list with an invalid change is rejected
// whole: the last good text stays, and the document is out of sync (a
// diagnostic says so) until the client sends the whole text or saves. Range
// changes to a document out of sync are ignored: their positions refer to
// a text we do not have.
func (s *Server) didChange(u uri.URI, version int32, changes []textChange, invalid string) {
	f, rel := s.folderFor(u)
	if f == nil || incremental.Kind(rel) == "" {
		return
	}
	doc, ok := f.ws.Document(rel)
	if !ok {
		s.logf(protocol.MessageTypeWarning, "change to %s, which is not open: ignored", rel)
		return
	}
	lost, outOfSync := f.syncLoss(rel)
	if last := max(doc.Version, lost.version); version <= last {
		s.logf(protocol.MessageTypeWarning, "change to %s: version %d is not newer than %d: ignored", rel, version, last)
		return
	}
	enc := s.capsNow().encoding
	var edits []incremental.Edit
	if invalid == "" {
		var err error
		if edits, _, err = applyChanges(doc.Text, enc, changes); err != nil {
			invalid = err.Error()
		}
	}
	if invalid != "" {
		s.logf(protocol.MessageTypeError, "change to %s (version %d) rejected: %s; acg keeps the last good text until the editor sends the whole text or saves", rel, version, invalid)
		f.loseSync(rel, version, invalid)
		return
	}
	if outOfSync {
		k := -1
		for j, c := range changes {
			if c.whole {
				k = j
			}
		}
		if k < 0 {
			f.loseSync(rel, version, lost.reason) // still the client's newest version
			s.logOnce(protocol.MessageTypeWarning, "unsynced\x00"+f.root+"\x00"+rel, "%s is out of sync: its range changes are ignored until the editor sends the whole text or saves", rel)
			return
		}
		// From the whole text on: what came before it no longer matters.
		edits, _, _ = applyChanges(doc.Text, enc, changes[k:])
	}
	if _, _, err := f.ws.Change(context.Background(), rel, version, edits); err != nil {
		s.logf(protocol.MessageTypeError, "change %s: %v", rel, err)
	} else if outOfSync {
		f.regainSync(rel)
		s.logf(protocol.MessageTypeInfo, "%s: in sync again (the editor sent the whole text)", rel)
	}
	f.changed()
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
	delete(f.unsynced, rel)
	f.mu.Unlock()
	f.clear(rel, p.TextDocument.URI)
	f.changed()
	return nil
}

// DidSave runs Opengrep on the saved file, when it is installed. The
// document's text is already analysed; the file on disk is read again when
// the watcher reports it. A document out of sync takes the saved text: the
// one didSave carries, else the file on disk.
func (s *Server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	f, rel := s.folderFor(p.TextDocument.URI)
	if f == nil {
		return nil
	}
	if lost, outOfSync := f.syncLoss(rel); outOfSync {
		var text []byte
		var err error
		if p.Text != nil {
			text = []byte(*p.Text)
		} else {
			text, err = f.ws.ReadFile(rel)
		}
		if err == nil {
			_, err = f.ws.Open(context.Background(), rel, lost.version, text)
		}
		if err != nil {
			s.logf(protocol.MessageTypeError, "%s is out of sync and could not be read again on save: %v", rel, err)
		} else {
			f.regainSync(rel)
			s.logf(protocol.MessageTypeInfo, "%s: in sync again (the saved text)", rel)
			f.changed()
		}
	}
	f.proveFile(rel)
	return nil
}

// syncLost is what the server knows of a document it is out of sync with:
// the client's newest version and why the sync was lost.
type syncLost struct {
	version int32
	reason  string
}

func (f *folder) syncLoss(rel string) (syncLost, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	l, ok := f.unsynced[rel]
	return l, ok
}

// loseSync marks a document out of sync and publishes the diagnostic that
// says so, when that is news.
func (f *folder) loseSync(rel string, version int32, reason string) {
	f.mu.Lock()
	old, was := f.unsynced[rel]
	f.unsynced[rel] = syncLost{version: version, reason: reason}
	f.mu.Unlock()
	if !was || old.reason != reason {
		f.republish()
	}
}

// regainSync clears the mark; the next analysis publishes without it.
func (f *folder) regainSync(rel string) {
	f.mu.Lock()
	delete(f.unsynced, rel)
	f.mu.Unlock()
}
