package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/lsp/gate"
	"github.com/acg-dev/acg/policy"
)

// CodeAction offers the approval-gate quick fix for the acg diagnostics in
// the request's context: one per ungated action tool and, when there are
// several, one that gates them all (the preferred one: it clears the
// finding). Context diagnostics are matched by code and data, never by
// range: some clients echo byte columns.
func (s *Server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	if !wantsQuickFix(p.Context.Only) {
		return nil, nil
	}
	f, rel := s.folderFor(p.TextDocument.URI)
	if f == nil {
		return nil, nil
	}
	a, err := f.await(ctx)
	if err != nil {
		return nil, protocol.ErrRequestCancelled
	}
	caps := s.capsNow()
	type match struct {
		f    *policy.Finding
		diag protocol.Diagnostic
	}
	var matches []match
	seen := map[string]bool{}
	for _, d := range p.Context.Diagnostics {
		if fd := findingFor(a, rel, d, caps.encoding); fd != nil && !seen[fd.ID] {
			seen[fd.ID] = true
			matches = append(matches, match{fd, d})
		}
	}
	if len(p.Context.Diagnostics) == 0 {
		// Some clients send no context: offer fixes for findings on the line.
		byFile := f.diagnostics(a)[rel]
		for _, d := range byFile {
			if d.Range.Start.Line <= p.Range.Start.Line && p.Range.Start.Line <= d.Range.End.Line {
				if fd := findingFor(a, rel, d, caps.encoding); fd != nil && !seen[fd.ID] {
					seen[fd.ID] = true
					matches = append(matches, match{fd, d})
				}
			}
		}
	}
	var out []protocol.CommandOrCodeAction
	for _, m := range matches {
		for _, act := range f.fixes(a, m.f, m.diag, caps) {
			out = append(out, act)
		}
	}
	return out, nil
}

func wantsQuickFix(only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == protocol.CodeActionKindQuickFix || strings.HasPrefix(string(protocol.CodeActionKindQuickFix), string(k)+".") || k == protocol.CodeActionKindEmpty {
			return true
		}
	}
	return false
}

// findingFor finds the finding behind a diagnostic the client sent back: by
// the id in its data, else (a client that drops data) by rule and line.
func findingFor(a *analysis, rel string, d protocol.Diagnostic, enc encoding) *policy.Finding {
	code, ok := d.Code.(protocol.String)
	if !ok {
		return nil
	}
	var data diagData
	if len(d.Data) > 0 && json.Unmarshal(d.Data, &data) == nil && data.ID != "" {
		for _, f := range a.res.Findings {
			if f.ID == data.ID && f.Rule == string(code) {
				return f
			}
		}
		return nil
	}
	file := a.snap.File(rel)
	if file == nil || file.Src == nil {
		return nil
	}
	m := newMapper(file.Src, enc)
	for _, f := range a.res.Findings {
		if f.Rule == string(code) && f.Loc.File == rel && m.position(f.Loc.Start.Byte).Line == d.Range.Start.Line {
			return f
		}
	}
	return nil
}

// fixes plans the quick fixes for one finding.
func (f *folder) fixes(a *analysis, fd *policy.Finding, d protocol.Diagnostic, caps clientCaps) []protocol.CommandOrCodeAction {
	if len(fd.Fix) > 0 {
		// The check knows the edit (Claude Code: move the allow rule to ask).
		if act := f.configFix(a, fd, d, caps); act != nil {
			return []protocol.CommandOrCodeAction{act}
		}
		return nil
	}
	if len(fd.SinkIDs) == 0 {
		return nil
	}
	var sets [][]string
	if len(fd.SinkIDs) > 1 {
		for _, id := range fd.SinkIDs {
			sets = append(sets, []string{id})
		}
	}
	sets = append(sets, fd.SinkIDs) // gates every action: clears the finding
	var out []protocol.CommandOrCodeAction
	disabled := false // one "not available" action per finding is enough
	for i, ids := range sets {
		preferred := i == len(sets)-1
		req := gate.Request{AgentID: fd.AgentID, AgentPath: gate.AgentPath(a.res.Graph, fd.AgentID),
			Tools: gate.ToolsFor(a.res.Graph, fd.AgentID, ids), Files: map[string]gate.File{}}
		stale := false
		for _, p := range append([]string{req.AgentPath}, toolPaths(req.Tools)...) {
			file := a.snap.File(p)
			if file == nil || file.Src == nil {
				continue
			}
			if !f.current(p, file.Src) {
				stale = true // the editor's text is ahead of what acg could parse
			}
			req.Files[p] = gate.File{Path: p, Src: file.Src}
		}
		if stale {
			continue
		}
		fix, err := gate.Plan(req)
		kind := protocol.CodeActionKindQuickFix
		if err != nil {
			if caps.disabledActions && !disabled && (errors.Is(err, gate.ErrGated) || errors.Is(err, gate.ErrNoGate)) {
				disabled = true
				out = append(out, &protocol.CodeAction{Title: "Require human approval (not available)", Kind: &kind,
					Diagnostics: []protocol.Diagnostic{d}, Disabled: protocol.CodeActionDisabled{Reason: err.Error()}})
			} else {
				f.s.logf(protocol.MessageTypeInfo, "no quick fix for %s on %s: %v", fd.Rule, fd.Agent, err)
			}
			continue
		}
		out = append(out, f.action(a, fix, d, caps, preferred))
	}
	return out
}

// action offers a fix as a quickfix code action, or as our acg.applyFix
// command to a client without code action literals.
func (f *folder) action(a *analysis, fix *gate.Fix, d protocol.Diagnostic, caps clientCaps, preferred bool) protocol.CommandOrCodeAction {
	edit := f.workspaceEdit(a, fix, caps)
	if !caps.codeActionLiterals {
		arg, _ := protocol.Marshal(edit)
		return &protocol.Command{Title: fix.Title, Command: cmdApplyFix, Arguments: []protocol.LSPAny{arg}}
	}
	kind := protocol.CodeActionKindQuickFix
	return &protocol.CodeAction{Title: fix.Title, Kind: &kind, Diagnostics: []protocol.Diagnostic{d}, IsPreferred: ptr(preferred), Edit: edit}
}

// configFix turns the edits a check attached to its finding into a code
// action, unless the files changed since or the edits overlap.
func (f *folder) configFix(a *analysis, fd *policy.Finding, d protocol.Diagnostic, caps clientCaps) protocol.CommandOrCodeAction {
	fix := &gate.Fix{Title: fmt.Sprintf("Ask before %s runs (move the permission rule to \"ask\")", fd.Sink), Edits: map[string][]gate.Edit{}}
	for _, e := range fd.Fix {
		file := a.snap.File(e.Loc.File)
		if file == nil || file.Src == nil || !f.current(e.Loc.File, file.Src) || e.Loc.End.Byte > len(file.Src) || e.Loc.Start.Byte > e.Loc.End.Byte {
			return nil
		}
		fix.Edits[e.Loc.File] = append(fix.Edits[e.Loc.File], gate.Edit{Start: e.Loc.Start.Byte, End: e.Loc.End.Byte, Text: e.NewText})
	}
	for _, es := range fix.Edits {
		sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
		for i := 1; i < len(es); i++ {
			if es[i].Start < es[i-1].End {
				return nil
			}
		}
	}
	return f.action(a, fix, d, caps, true)
}

func toolPaths(ts []gate.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Path)
	}
	return out
}

// workspaceEdit converts a fix; open documents are versioned so that the
// client refuses the edit if the text moved on.
func (f *folder) workspaceEdit(a *analysis, fix *gate.Fix, caps clientCaps) *protocol.WorkspaceEdit {
	paths := make([]string, 0, len(fix.Edits))
	for p := range fix.Edits {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	we := &protocol.WorkspaceEdit{}
	for _, p := range paths {
		file := a.snap.File(p)
		m := newMapper(file.Src, caps.encoding)
		var edits []protocol.TextEdit
		for _, e := range fix.Edits[p] {
			edits = append(edits, protocol.TextEdit{Range: m.rangeOf(e.Start, e.End), NewText: e.Text})
		}
		u := f.uriOf(p)
		if caps.documentChanges {
			id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}
			if _, open := f.ws.Document(p); open {
				id.Version = ptr(file.Version)
			}
			elems := make([]protocol.TextDocumentEditElement, len(edits))
			for i := range edits {
				elems[i] = &edits[i]
			}
			we.DocumentChanges = append(we.DocumentChanges, &protocol.TextDocumentEdit{TextDocument: id, Edits: elems})
		} else {
			if we.Changes == nil {
				we.Changes = map[uri.URI][]protocol.TextEdit{}
			}
			we.Changes[u] = edits
		}
	}
	return we
}
