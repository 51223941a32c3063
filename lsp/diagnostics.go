package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/policy"
)

// ruleDocs is where codeDescription points: one page per rule.
const ruleDocs = "https://github.com/acg-dev/acg/blob/main/docs/rules/"

// diagData is Diagnostic.data: what a code action needs to find the finding
// again (clients echo it back; some change the range, none the data).
type diagData struct {
	ID    string   `json:"id"`
	Rule  string   `json:"rule"`
	Agent string   `json:"agent"`
	Sinks []string `json:"sinks,omitempty"`
}

// publisher remembers what was pushed per file, to send only changes and to
// clear files that became clean.
type publisher struct {
	mu        sync.Mutex
	published map[string]string // rel → hash of the last payload
}

// mappers caches one mapper per file of a snapshot while converting.
type mappers struct {
	a   *analysis
	enc encoding
	m   map[string]*mapper
}

func (ms *mappers) get(rel string) *mapper {
	if m, ok := ms.m[rel]; ok {
		return m
	}
	var m *mapper
	if f := ms.a.texts().File(rel); f != nil && f.Src != nil {
		m = newMapper(f.Src, ms.enc)
	}
	ms.m[rel] = m
	return m
}

// rangeOf converts a location of the analysis; a file the snapshot does not
// hold (it cannot happen for findings) falls back to line and column.
func (ms *mappers) rangeOf(l extract.Loc) protocol.Range {
	if m := ms.get(l.File); m != nil {
		return m.rangeOf(ms.a.offset(l.File, int(l.Start.Byte)), ms.a.offset(l.File, int(l.End.Byte)))
	}
	p := protocol.Position{Line: uint32(max(l.Start.Line-1, 0)), Character: uint32(max(l.Start.Col-1, 0))}
	return protocol.Range{Start: p, End: p}
}

// diagnostics converts an analysis into diagnostics per file; with only
// set, for that file alone (a request about one document).
func (f *folder) diagnostics(a *analysis, only string) map[string][]protocol.Diagnostic {
	keep := func(rel string) bool { return only == "" || rel == only }
	return f.diagnosticsOf(a, keep)
}

// diagnosticsOf converts an analysis into diagnostics for the files keep
// says, each file's in full.
func (f *folder) diagnosticsOf(a *analysis, keep func(rel string) bool) map[string][]protocol.Diagnostic {
	caps, st := f.s.capsNow(), f.s.settingsNow()
	ms := &mappers{a: a, enc: caps.encoding, m: map[string]*mapper{}}
	out := map[string][]protocol.Diagnostic{}
	for _, fd := range a.findings(st) {
		if !st.shows(fd) || !fd.Loc.Valid() || !keep(fd.Loc.File) {
			continue
		}
		out[fd.Loc.File] = append(out[fd.Loc.File], f.diagnostic(fd, ms, caps))
	}
	f.problems(a, ms, out, keep)
	f.unsyncedDiagnostics(ms, out, keep)
	for rel, ds := range out {
		sort.SliceStable(ds, func(i, j int) bool {
			a, b := ds[i].Range.Start, ds[j].Range.Start
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Character < b.Character
		})
		out[rel] = ds
	}
	return out
}

func (f *folder) diagnostic(fd *policy.Finding, ms *mappers, caps clientCaps) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    ms.rangeOf(headOf(ms, fd.Loc)),
		Severity: severity(fd),
		Code:     protocol.String(fd.Rule),
		Source:   protocol.NewOptional("acg"),
	}
	if caps.codeDescription {
		d.CodeDescription = protocol.CodeDescription{Href: uri.URI(ruleDocs + fd.Rule + ".md")}
	}
	data, _ := json.Marshal(diagData{ID: fd.ID, Rule: fd.Rule, Agent: fd.AgentID, Sinks: fd.SinkIDs})
	d.Data = data
	// The messages are shown as text by the editor (some in a terminal):
	// names and paths from the scanned files are made safe (termsafe).
	msg := termsafe.String(fd.Message)
	if msg == "" {
		msg = fd.Rule
	}
	var folded []string
	for _, st := range related(fd) {
		r := ms.rangeOf(st.Loc)
		if caps.relatedInformation && !extract.IsUserFile(st.Loc.File) { // a user-level file is named with ~, never by its URI
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: f.uriOf(st.Loc.File), Range: r}, Message: termsafe.String(st.Message)})
		} else {
			folded = append(folded, fmt.Sprintf("  %s:%s: %s", termsafe.String(st.Loc.File), posString(r.Start), termsafe.String(st.Message)))
		}
	}
	if len(folded) > 0 {
		msg += "\n" + strings.Join(folded, "\n")
	}
	d.Message = protocol.String(msg)
	return d
}

// related lists what a diagnostic shows besides its message: every path
// step, in order, then the tools that give a leg, each place once. A tool
// that gives a leg is mostly a step of the path too, at the same place: its
// entry joins the entry there that shares most of its words, which keeps
// the more informative message (the tool's is dropped when the entry says
// it all, replaces it when it says more, is appended otherwise). Distinct
// steps at one place stay apart (a Claude Code agent's built-in tools all
// sit on its permissions).
func related(fd *policy.Finding) []policy.Step {
	type entry struct {
		policy.Step
		words map[string]bool
		step  bool
	}
	var es []*entry
	// The entries at each place, in order: a merged finding of a handoff
	// chain has hundreds of steps and related locations, and comparing
	// each with every entry was quadratic.
	at := map[extract.Loc][]*entry{}
	for _, st := range fd.AllSteps() {
		if st.Loc.Valid() && !slices.ContainsFunc(at[st.Loc], func(e *entry) bool { return e.Message == st.Message }) {
			e := &entry{st, wordsOf(st.Message), true}
			es = append(es, e)
			at[st.Loc] = append(at[st.Loc], e)
		}
	}
	for _, st := range fd.AllRelated() {
		if !st.Loc.Valid() {
			continue
		}
		w := wordsOf(st.Message)
		var best, extra *entry
		shared, covered := 0, false
		for _, e := range at[st.Loc] {
			n := overlap(w, e.words)
			covered = covered || n == len(w)
			if n > shared {
				best, shared = e, n
			}
			if !e.step {
				extra = e
			}
		}
		switch {
		case covered:
		case best == nil && extra == nil:
			e := &entry{st, w, false}
			es = append(es, e)
			at[st.Loc] = append(at[st.Loc], e)
		case best == nil:
			extra.Message += "; " + st.Message
			maps.Copy(extra.words, w)
		case overlap(best.words, w) == len(best.words):
			best.Message, best.words = st.Message, w
		default:
			best.Message += "; " + st.Message
			maps.Copy(best.words, w)
		}
	}
	out := make([]policy.Step, len(es))
	for i, e := range es {
		out[i] = e.Step
	}
	return out
}

// wordsOf is the set of words that carry a message's facts: names, labels,
// roles, the fail-closed "default", without the words that only join them
// and the deciders a path step's evidence already shows.
func wordsOf(msg string) map[string]bool {
	w := map[string]bool{}
	for _, f := range strings.Fields(strings.ToLower(msg)) {
		f = strings.TrimRight(strings.Trim(f, "\"'()[]{},;:"), ".")
		if f != "" && !joinWords[f] {
			w[f] = true
		}
	}
	return w
}

var joinWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "by": true, "and": true, "with": true,
	"tool": true, "has": true, "gives": true, "is": true, "rules": true, "catalog": true, "alias": true, "annotation": true, "config": true}

// overlap counts the words of a that b holds too.
func overlap(a, b map[string]bool) int {
	n := 0
	for k := range a {
		if b[k] {
			n++
		}
	}
	return n
}

// Codes of the diagnostics about files acg could not read in full.
const (
	codeParseError  = "parse-error"  // a config, subagent or crew YAML file
	codeConfigError = "config-error" // .acg.yaml, which is then not applied
	codeOutOfSync   = "out-of-sync"  // an open document whose edit was rejected
)

// problems adds what kept acg from reading a file (invalid JSON, a broken
// frontmatter, bad YAML, an .acg.yaml error) as diagnostics on that file.
// Python syntax errors are left to the user's Python server: acg analyses
// the last text of the file without one. A notebook cell acg left out (it
// does not compile) is input missing from the analysis and is shown.
func (f *folder) problems(a *analysis, ms *mappers, out map[string][]protocol.Diagnostic, keep func(string) bool) {
	caps := f.s.capsNow()
	for _, p := range a.res.Problems {
		rel := p.Loc.File
		if rel == "" && a.res.ConfigErr != nil {
			rel = config.FileName // a config error without a position
		}
		if rel == "" || !keep(rel) || (incremental.IsCode(rel) && !p.Unread) {
			continue
		}
		d := protocol.Diagnostic{Severity: protocol.DiagnosticSeverityWarning, Code: protocol.String(codeParseError),
			Source: protocol.NewOptional("acg"), Message: protocol.String(termsafe.String(p.Message))}
		if rel == config.FileName {
			d.Severity, d.Code = protocol.DiagnosticSeverityError, protocol.String(codeConfigError)
			if caps.codeDescription {
				d.CodeDescription = protocol.CodeDescription{Href: configDocs}
			}
		}
		if m := ms.get(rel); m != nil {
			d.Range = problemRange(m, p.Loc)
		}
		out[rel] = append(out[rel], d)
	}
	// A file not extracted (too large, binary) is input missing from the
	// analysis, as the CLI's notices say: a warning at its start, with the
	// notice's kind as the code.
	for _, file := range a.snap.Files() {
		if file.SkipKind() == "" || !keep(file.Path) {
			continue
		}
		out[file.Path] = append(out[file.Path], protocol.Diagnostic{Severity: protocol.DiagnosticSeverityWarning,
			Code: protocol.String(file.SkipKind()), Source: protocol.NewOptional("acg"),
			Message: protocol.String(file.Skipped + ": acg did not analyse this file")})
	}
}

// unsyncedDiagnostics adds, on each document the server is out of sync
// with, a diagnostic that says so: the findings are those of a text the
// editor no longer shows.
func (f *folder) unsyncedDiagnostics(ms *mappers, out map[string][]protocol.Diagnostic, keep func(string) bool) {
	f.mu.Lock()
	lost := maps.Clone(f.unsynced)
	f.mu.Unlock()
	for rel, l := range lost {
		if !keep(rel) {
			continue
		}
		d := protocol.Diagnostic{Severity: protocol.DiagnosticSeverityWarning, Code: protocol.String(codeOutOfSync), Source: protocol.NewOptional("acg"),
			Message: protocol.String("acg is out of sync with this document: an edit was rejected (" + l.reason + "). " +
				"acg analyses the last good text until the editor sends the whole text or the file is saved.")}
		if m := ms.get(rel); m != nil {
			d.Range = m.rangeOf(0, m.lineEnd(0))
		}
		out[rel] = append(out[rel], d)
	}
}

// configDocs documents .acg.yaml.
const configDocs = "https://github.com/acg-dev/acg/blob/main/README.md#configuration-acgyaml"

// problemRange places a problem: at its byte offsets, or at its line and
// column when only those are known (.acg.yaml errors), up to the end of the
// line when it is a point, so that it shows.
func problemRange(m *mapper, l extract.Loc) protocol.Range {
	start, end := l.Start.Byte, l.End.Byte
	if start == 0 && (l.Start.Line > 1 || l.Start.Col > 1) {
		start = int32(m.offsetUTF16(int(max(l.Start.Line-1, 0)), int(max(l.Start.Col-1, 0))))
		end = start
	}
	if end <= start {
		line := m.position(int(start)).Line
		end = int32(m.lineEnd(int(line)))
		if end < start {
			end = start
		}
	}
	return m.rangeOf(int(start), int(end))
}

// headOf narrows an agent's whole constructor call to the callee, up to
// the parenthesis (or the end of the line): that is what the squiggle should
// mark, not five lines of arguments.
func headOf(ms *mappers, l extract.Loc) extract.Loc {
	f := ms.a.snap.File(l.File)
	if f == nil || int(l.Start.Byte) >= len(f.Src) || int(l.End.Byte) > len(f.Src) {
		return l
	}
	line := f.Src[l.Start.Byte:l.End.Byte]
	end := len(line)
	for i, c := range line {
		if c == '\n' || c == '\r' || c == '(' {
			end = i
			break
		}
	}
	if end == 0 {
		return l
	}
	h := l
	h.End = extract.Point{Line: l.Start.Line, Col: int32(int(l.Start.Col) + end), Byte: int32(int(l.Start.Byte) + end)}
	return h
}

// severity maps a finding to the editor's levels (DESIGN.md "Uncertainty
// is shown, not hidden"): a finding that rests on the fail-closed default
// is a warning, one backed by evidence an error; low findings and test
// code (info) are information; a malformed suppression comment warns.
func severity(fd *policy.Finding) protocol.DiagnosticSeverity {
	switch {
	case fd.Severity == policy.Info || fd.Severity == policy.Low:
		return protocol.DiagnosticSeverityInformation
	case fd.Rule == policy.RuleInvalidSuppression || fd.Triage == policy.TriageNeedsReview:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityError
}

// publish pushes the analysis' diagnostics to a client that does not pull:
// only files whose diagnostics changed, [] for files that became clean.
// Open documents carry the version the analysis saw.
func (f *folder) publish(a *analysis) {
	caps := f.s.capsNow()
	if caps.pullDiagnostics {
		if caps.diagnosticRefresh {
			go func() { _ = f.s.client.DiagnosticRefresh(f.s.ctx) }()
		}
		return
	}
	// One publication at a time, in order, each computed under the lock
	// (the out-of-sync marks change between analyses); not under f.mu,
	// which the read loop needs while a slow client drains our writes.
	f.pub.mu.Lock()
	defer f.pub.mu.Unlock()
	keep := func(string) bool { return true }
	if a.view != nil {
		// Moved along: only the diagnostics with a position in a shifted
		// file (or its version) can differ from what was published.
		in := a.touched(f.s.settingsNow())
		keep = func(rel string) bool { return in[rel] }
	}
	byFile := f.diagnosticsOf(a, keep)
	for rel := range f.pub.published {
		if _, ok := byFile[rel]; !ok && keep(rel) {
			byFile[rel] = nil
		}
	}
	rels := make([]string, 0, len(byFile))
	for rel := range byFile {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		ds := byFile[rel]
		if ds == nil {
			ds = []protocol.Diagnostic{} // [] clears; null would not
		}
		p := &protocol.PublishDiagnosticsParams{URI: f.uriOf(rel), Diagnostics: ds}
		if file := a.texts().File(rel); file != nil && file.Version > 0 {
			p.Version = protocol.NewOptional(file.Version)
		}
		h := payloadHash(p)
		if f.pub.published[rel] == h {
			continue
		}
		if len(ds) == 0 {
			delete(f.pub.published, rel)
		} else {
			f.pub.published[rel] = h
		}
		if err := f.s.client.PublishDiagnostics(f.s.ctx, p); err != nil {
			f.s.logf(protocol.MessageTypeWarning, "publishDiagnostics: %v", err)
		}
	}
}

// republish sends the current analysis again after the filters changed.
func (f *folder) republish() {
	if a := f.latestAnalysis(); a != nil {
		f.publish(a)
	}
}

// clear pushes [] for a file at once (a closed document: its versioned
// diagnostics no longer apply; the next analysis publishes the file's own).
func (f *folder) clear(rel string, u uri.URI) {
	if f.s.capsNow().pullDiagnostics {
		return
	}
	f.pub.mu.Lock()
	defer f.pub.mu.Unlock()
	if _, ok := f.pub.published[rel]; !ok {
		return
	}
	delete(f.pub.published, rel)
	_ = f.s.client.PublishDiagnostics(f.s.ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
}

func payloadHash(v any) string {
	b, _ := protocol.Marshal(v)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:12])
}

// Diagnostic answers a pull for one document.
func (s *Server) Diagnostic(ctx context.Context, p *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	f, rel := s.folderFor(p.TextDocument.URI)
	full := func(ds []protocol.Diagnostic, id string) protocol.DocumentDiagnosticReport {
		if ds == nil {
			ds = []protocol.Diagnostic{}
		}
		return &protocol.RelatedFullDocumentDiagnosticReport{FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: ds}}
	}
	if f == nil {
		return full(nil, "none"), nil
	}
	a, err := f.await(ctx)
	if err != nil {
		return nil, protocol.ErrRequestCancelled
	}
	ds := f.diagnostics(a, rel)[rel]
	id := payloadHash(ds)
	if p.PreviousResultID != nil && *p.PreviousResultID == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id}}, nil
	}
	return full(ds, id), nil
}

// DiagnosticWorkspace answers a workspace pull: every file whose
// diagnostics differ from the client's previous results. When none does, it
// waits for the next analysis (clients re-issue this request as soon as it
// returns, so answering at once would spin).
func (s *Server) DiagnosticWorkspace(ctx context.Context, p *protocol.WorkspaceDiagnosticParams) (*protocol.WorkspaceDiagnosticReport, error) {
	prev := map[uri.URI]string{}
	for _, r := range p.PreviousResultIds {
		prev[r.URI] = r.Value
	}
	s.mu.Lock()
	folders := append([]*folder(nil), s.folders...)
	s.mu.Unlock()
	for {
		wait := s.updatedChan()
		report := &protocol.WorkspaceDiagnosticReport{Items: []protocol.WorkspaceDocumentDiagnosticReport{}}
		for _, f := range folders {
			a, err := f.await(ctx)
			if err != nil {
				return nil, protocol.ErrRequestCancelled
			}
			byFile := f.diagnostics(a, "")
			for u := range prev {
				if rel, ok := f.rel(u.FsPath()); ok {
					if _, has := byFile[rel]; !has {
						byFile[rel] = nil // it had diagnostics: report it clean
					}
				}
			}
			for rel, ds := range byFile {
				u := f.uriOf(rel)
				if ds == nil {
					ds = []protocol.Diagnostic{}
				}
				id := payloadHash(ds)
				if prev[u] == id {
					continue
				}
				item := &protocol.WorkspaceFullDocumentDiagnosticReport{URI: u,
					FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: ds}}
				if file := a.snap.File(rel); file != nil && file.Version > 0 {
					item.Version = ptr(file.Version)
				}
				report.Items = append(report.Items, item)
			}
		}
		if len(report.Items) > 0 || len(folders) == 0 {
			return report, nil
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, protocol.ErrRequestCancelled
		case <-s.ctx.Done():
			return nil, protocol.ErrRequestCancelled
		}
	}
}
