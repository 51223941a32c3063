package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp/gate"
	"github.com/acg-dev/acg/policy"
)

// CodeAction offers the quick fixes for the acg diagnostics in the
// request's context: the approval gate (one per ungated action tool and,
// when there are several, one that gates them all; or the edit the check
// knows), and the inline suppression. Context diagnostics are matched by
// code and data, never by range: some clients echo byte columns.
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
	offers := f.offers(a, f.matches(a, rel, p, caps), caps)
	out := make([]protocol.CommandOrCodeAction, 0, len(offers))
	for _, o := range offers {
		out = append(out, f.action(a, o, caps))
	}
	return out, nil
}

// match is a finding and the diagnostic the client sent for it.
type match struct {
	f    *policy.Finding
	diag protocol.Diagnostic
}

// matches finds the findings behind the request's context diagnostics, or,
// for a client that sends none, the findings on the requested line.
func (f *folder) matches(a *analysis, rel string, p *protocol.CodeActionParams, caps clientCaps) []match {
	ds := p.Context.Diagnostics
	if len(ds) == 0 {
		for _, d := range f.diagnostics(a, rel)[rel] {
			if d.Range.Start.Line <= p.Range.Start.Line && p.Range.Start.Line <= d.Range.End.Line {
				ds = append(ds, d)
			}
		}
	}
	var out []match
	seen := map[string]bool{}
	for _, d := range ds {
		if fd := findingFor(a, rel, d, caps.encoding); fd != nil && !seen[fd.ID] {
			seen[fd.ID] = true
			out = append(out, match{fd, d})
		}
	}
	return out
}

// offers plans the fixes of every matched finding. Clients send every
// diagnostic on the line, and findings about one agent share fixes: each
// distinct edit is offered once, naming the diagnostics it resolves, and
// the gates that resolve the most are preferred. Order: gates of one tool
// by name, the preferred gates, the unavailable, the suppressions.
func (f *folder) offers(a *analysis, ms []match, caps clientCaps) []*offer {
	var offers []*offer
	byKey := map[string]*offer{}
	for _, m := range ms {
		for _, c := range f.fixes(a, m.f, caps) {
			o := byKey[c.key()]
			if o == nil {
				o = &offer{candidate: c}
				byKey[c.key()] = o
				offers = append(offers, o)
			}
			o.diags = append(o.diags, m.diag)
			if c.fix != nil && c.gates == nil {
				o.resolved = append(o.resolved, m.diag) // the check's own edit, or the suppression
			}
		}
	}
	// A gate resolves every finding of its agent whose actions it all gates.
	best := 0
	for _, o := range offers {
		for _, m := range ms {
			if o.gates != nil && m.f.AgentID == o.agent && len(m.f.Fix) == 0 && len(m.f.SinkIDs) > 0 && subset(m.f.SinkIDs, o.gates) {
				o.resolved = append(o.resolved, m.diag)
			}
		}
		if o.fix != nil && !o.suppress && !o.declare {
			best = max(best, len(o.resolved))
		}
	}
	rank := func(o *offer) int {
		switch {
		case o.suppress:
			return 4
		case o.declare:
			return 3
		case o.fix == nil:
			return 2
		case o.preferred:
			return 1
		}
		return 0
	}
	for _, o := range offers {
		o.preferred = o.fix != nil && !o.suppress && !o.declare && best > 0 && len(o.resolved) == best
	}
	slices.SortStableFunc(offers, func(x, y *offer) int {
		if c := rank(x) - rank(y); c != 0 {
			return c
		}
		return strings.Compare(x.title, y.title)
	})
	return offers
}

// candidate is one fix planned for one finding: an edit, or (fix nil) a
// disabled action saying why there is none.
type candidate struct {
	title    string
	fix      *gate.Fix
	disabled string
	agent    string
	gates    []string // the tools an approval gate guards (nil for other fixes)
	// suppress marks the inline suppression and declare the .acg.yaml
	// tools: entry: never preferred, their one edit inserts text whose
	// reason goes at byte reasonAt. create: the file does not exist yet.
	suppress, declare, create bool
	reasonAt                  int
}

// key identifies what a candidate does: findings that share a fix share
// its key.
func (c candidate) key() string {
	if c.fix == nil {
		return "disabled\x00" + c.disabled
	}
	paths := slices.Sorted(maps.Keys(c.fix.Edits))
	var b strings.Builder
	for _, p := range paths {
		for _, e := range c.fix.Edits[p] {
			fmt.Fprintf(&b, "%s\x00%d\x00%d\x00%s\x00", p, e.Start, e.End, e.Text)
		}
	}
	return b.String()
}

// offer is a candidate with the context diagnostics it was planned for and
// those it resolves.
type offer struct {
	candidate
	diags, resolved []protocol.Diagnostic
	preferred       bool // it resolves the most findings
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
		if f.Rule == string(code) && f.Loc.File == rel && m.position(int(f.Loc.Start.Byte)).Line == d.Range.Start.Line {
			return f
		}
	}
	return nil
}

// fixes plans the quick fixes for one finding: the approval gates (or the
// check's own edit), the declarations of what its assumed tools really do
// (a needs-review finding), then the inline suppression.
func (f *folder) fixes(a *analysis, fd *policy.Finding, caps clientCaps) []candidate {
	out := f.gates(a, fd, caps)
	out = append(out, f.declarations(a, fd, caps)...)
	if c, ok := f.suppression(a, fd); ok {
		out = append(out, c)
	}
	return out
}

// suppression plans the `# acg: ignore[rule] reason` comment above a
// finding in a Python file; the user writes the reason. Findings in JSON
// and Markdown are suppressed in .acg.yaml instead, and a broken
// suppression is fixed, not suppressed.
func (f *folder) suppression(a *analysis, fd *policy.Finding) (candidate, bool) {
	rel := fd.Location.File
	file := a.snap.File(rel)
	if fd.Rule == policy.RuleInvalidSuppression || !incremental.TextIsCode(rel) || file == nil || file.Src == nil || !f.current(rel, file.Src) {
		return candidate{}, false
	}
	marker := "#"
	if incremental.Kind(rel) == incremental.KindTypeScript {
		marker = "//"
	}
	e := config.IgnoreEditWith(file.Src, fd.Location.Line, fd.Rule, "", marker)
	at := newMapper(file.Src, utf16).offsetUTF16(e.Line-1, 0)
	text := e.Text[:e.ReasonOffset] + config.ReasonPlaceholder + e.Text[e.ReasonOffset:]
	return candidate{
		title:    fmt.Sprintf("Suppress %s here (add a reason)", fd.Rule),
		fix:      &gate.Fix{Edits: map[string][]gate.Edit{rel: {{Start: at, End: at, Text: text}}}},
		suppress: true, reasonAt: e.ReasonOffset,
	}, true
}

// declarations plan, for a finding that rests on the fail-closed default,
// one `.acg.yaml` tools: entry per tool it assumed labels of: the labels
// acg proved are declared, each assumed one is a comment line naming it
// and why it was assumed (left commented, it is declared absent), and the
// reason is the placeholder, which the config rejects until a person
// replaces it (docs/lsp.md). A workspace without .acg.yaml gets it created
// where the client can create files.
func (f *folder) declarations(a *analysis, fd *policy.Finding, caps clientCaps) []candidate {
	if fd.Triage != policy.TriageNeedsReview || len(fd.Assumed) == 0 {
		return nil
	}
	rel := config.FileName
	var src []byte
	create := false
	switch file := a.snap.File(rel); {
	case file == nil:
		create = true
	case file.Src == nil || !f.current(rel, file.Src):
		return nil // skipped, or the editor is ahead of what acg read
	default:
		src = file.Src
	}
	var out []candidate
	seen := map[string]bool{}
	for _, as := range fd.Assumed {
		t := a.res.Graph.Tools[as.ToolID]
		if t == nil || seen[t.ID] {
			continue
		}
		seen[t.ID] = true
		title := fmt.Sprintf("Declare the effects of %s in %s (add a reason)", t.Name, rel)
		if create && !caps.createFiles {
			if caps.disabledActions {
				out = append(out, candidate{title: title + " (not available)", disabled: "the editor cannot create " + rel + ": create it, then ask again"})
			}
			continue
		}
		var proven []string
		var assumed []config.AssumedLabel
		for _, l := range effects.Labels {
			r := t.Effects.Get(l)
			switch {
			case !r.Value:
			case r.DecidedBy == effects.ByDefault:
				why := ""
				if len(r.Evidence) > 0 {
					why = r.Evidence[0].Detail
				}
				assumed = append(assumed, config.AssumedLabel{Label: string(l), Why: why})
			default:
				proven = append(proven, string(l))
			}
		}
		e, err := config.ToolEntryEdit(src, t.ID, t.Name, proven, assumed)
		if err != nil {
			if caps.disabledActions {
				out = append(out, candidate{title: title + " (not available)", disabled: err.Error()})
			}
			continue
		}
		out = append(out, candidate{title: title, declare: true, create: create, reasonAt: e.ReasonOffset,
			fix: &gate.Fix{Title: title, Edits: map[string][]gate.Edit{rel: {{Start: e.Offset, End: e.Offset, Text: e.Text}}}}})
	}
	return out
}

// gates plans the approval gates for a finding's actions, or takes the
// edit its check attached.
func (f *folder) gates(a *analysis, fd *policy.Finding, caps clientCaps) []candidate {
	if len(fd.Fix) > 0 {
		// The check knows the edit (Claude Code: move the allow rule to ask).
		if fix := f.configFix(a, fd); fix != nil {
			return []candidate{{title: fix.Title, fix: fix}}
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
	var out []candidate
	disabled := false // one "not available" action per finding is enough
	for _, ids := range sets {
		req := gate.Request{AgentID: fd.AgentID, AgentPath: gate.AgentPath(a.res.Graph, fd.AgentID),
			Tools: gate.ToolsFor(a.res.Graph, fd.AgentID, ids), Files: map[string]gate.File{}}
		stale, inCells := false, ""
		for _, p := range append([]string{req.AgentPath}, toolPaths(req.Tools)...) {
			file := a.snap.File(p)
			if file == nil || file.Src == nil {
				continue
			}
			if !f.current(p, file.Src) {
				stale = true // the editor's text is ahead of what acg could parse
			}
			if incremental.IsCode(p) && !incremental.TextIsCode(p) {
				inCells = p // a notebook: its code is inside JSON strings
			}
			req.Files[p] = gate.File{Path: p, Src: file.Src}
		}
		if stale {
			continue
		}
		if inCells != "" {
			if caps.disabledActions && !disabled {
				disabled = true
				out = append(out, candidate{title: "Require human approval (not available)", disabled: inCells + " is a notebook: acg does not edit its cells; add the approval in the cell"})
			}
			continue
		}
		fix, err := gate.Plan(req)
		if err != nil {
			if caps.disabledActions && !disabled && (errors.Is(err, gate.ErrGated) || errors.Is(err, gate.ErrNoGate)) {
				disabled = true
				out = append(out, candidate{title: "Require human approval (not available)", disabled: err.Error()})
			} else {
				f.s.logf(protocol.MessageTypeInfo, "no quick fix for %s on %s: %v", fd.Rule, fd.Agent, err)
			}
			continue
		}
		out = append(out, candidate{title: fix.Title, fix: fix, agent: fd.AgentID, gates: ids})
	}
	return out
}

// action offers a fix as a quickfix code action, or as our acg.applyFix
// command to a client without code action literals. It names the
// diagnostics the fix resolves, or, for a fix that gates one of several
// actions, those it was planned for.
func (f *folder) action(a *analysis, o *offer, caps clientCaps) protocol.CommandOrCodeAction {
	kind := protocol.CodeActionKindQuickFix
	if o.fix == nil {
		return &protocol.CodeAction{Title: o.title, Kind: &kind, Diagnostics: o.diags, Disabled: protocol.CodeActionDisabled{Reason: o.disabled}}
	}
	edit := f.workspaceEdit(a, &o.candidate, caps)
	if !caps.codeActionLiterals {
		arg, _ := protocol.Marshal(edit)
		return &protocol.Command{Title: o.title, Command: cmdApplyFix, Arguments: []protocol.LSPAny{arg}}
	}
	ds := o.resolved
	if len(ds) == 0 {
		ds = o.diags
	}
	return &protocol.CodeAction{Title: o.title, Kind: &kind, Diagnostics: ds, IsPreferred: ptr(o.preferred), Edit: edit}
}

// configFix turns the edits a check attached to its finding into a fix,
// unless the files changed since or the edits overlap.
func (f *folder) configFix(a *analysis, fd *policy.Finding) *gate.Fix {
	fix := &gate.Fix{Title: fmt.Sprintf("Ask before %s runs (move the permission rule to \"ask\")", fd.Sink), Edits: map[string][]gate.Edit{}}
	for _, e := range fd.Fix {
		file := a.snap.File(e.Loc.File)
		if file == nil || file.Src == nil || !f.current(e.Loc.File, file.Src) || int(e.Loc.End.Byte) > len(file.Src) || e.Loc.Start.Byte > e.Loc.End.Byte {
			return nil
		}
		fix.Edits[e.Loc.File] = append(fix.Edits[e.Loc.File], gate.Edit{Start: int(e.Loc.Start.Byte), End: int(e.Loc.End.Byte), Text: e.NewText})
	}
	for _, es := range fix.Edits {
		sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
		for i := 1; i < len(es); i++ {
			if es[i].Start < es[i-1].End {
				return nil
			}
		}
	}
	return fix
}

func subset(xs, of []string) bool {
	for _, x := range xs {
		if !slices.Contains(of, x) {
			return false
		}
	}
	return true
}

func toolPaths(ts []gate.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Path)
	}
	return out
}

// workspaceEdit converts a fix; open documents are versioned so that the
// client refuses the edit if the text moved on. A suppression's reason is
// a snippet placeholder where the client takes snippets, else the literal
// placeholder, which suppresses nothing until replaced.
func (f *folder) workspaceEdit(a *analysis, c *candidate, caps clientCaps) *protocol.WorkspaceEdit {
	fix := c.fix
	paths := make([]string, 0, len(fix.Edits))
	for p := range fix.Edits {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	we := &protocol.WorkspaceEdit{}
	for _, p := range paths {
		var src []byte
		if file := a.snap.File(p); file != nil {
			src = file.Src
		}
		m := newMapper(src, caps.encoding)
		var edits []protocol.TextEdit
		for _, e := range fix.Edits[p] {
			edits = append(edits, protocol.TextEdit{Range: m.rangeOf(e.Start, e.End), NewText: e.Text})
		}
		u := f.uriOf(p)
		if caps.documentChanges {
			id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}
			if file := a.snap.File(p); file != nil {
				if _, open := f.ws.Document(p); open {
					id.Version = ptr(file.Version)
				}
			} else if c.create {
				// The config is created first, then written (an existing
				// file is kept: the edit then goes at its start).
				we.DocumentChanges = append(we.DocumentChanges, &protocol.CreateFile{Kind: "create", URI: u,
					Options: &protocol.CreateFileOptions{IgnoreIfExists: ptr(true)}})
			}
			elems := make([]protocol.TextDocumentEditElement, len(edits))
			for i := range edits {
				elems[i] = &edits[i]
				if (c.suppress || c.declare) && caps.snippetEdits {
					t := edits[i].NewText
					at, end := c.reasonAt, c.reasonAt+len(config.ReasonPlaceholder)
					elems[i] = &protocol.SnippetTextEdit{Range: edits[i].Range, Snippet: protocol.StringValue{Kind: "snippet",
						Value: snippetEscape(t[:at]) + "${1:" + config.ReasonPlaceholder + "}" + snippetEscape(t[end:])}}
				}
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

// snippetEscape quotes the characters snippet syntax gives a meaning to.
func snippetEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}
