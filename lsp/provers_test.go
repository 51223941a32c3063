package lsp_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/provers"
)

// fakeProver stands in for Opengrep and CodeQL, which cannot be installed
// here (their runners are tested in prove/ with a process stand-in): it
// records its requests and answers with the flow a taint engine would find
// in testdata/lsp/hidden-flow's relay tool, through a module-level cache
// the builtin prover does not follow.
type fakeProver struct {
	name string
	hold chan struct{} // when set, Run waits for it to close
	mu   sync.Mutex
	reqs []prove.Request
	srcs map[string]string
}

func (p *fakeProver) Name() string                            { return p.name }
func (p *fakeProver) Version(context.Context) (string, error) { return "fake", nil }

func (p *fakeProver) Run(_ context.Context, req prove.Request) ([]prove.Flow, error) {
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	if p.srcs == nil {
		p.srcs = map[string]string{}
	}
	for _, f := range req.Files {
		p.srcs[f] = string(req.Source(f))
	}
	p.mu.Unlock()
	if p.hold != nil {
		<-p.hold
	}
	if p.name != "opengrep" || len(req.Files) != 1 || req.Files[0] != "tools.py" {
		return nil, nil
	}
	src := string(req.Source("tools.py"))
	at := func(s string) prove.Step {
		i := strings.Index(src, s)
		if i < 0 {
			return prove.Step{}
		}
		lines := strings.Split(src[:i], "\n")
		p := extract.Point{Line: int32(len(lines)), Col: int32(len(lines[len(lines)-1]) + 1), Byte: int32(i)}
		end := p
		end.Col += int32(len(s))
		end.Byte += int32(len(s))
		return prove.Step{Loc: extract.Loc{File: "tools.py", Start: p, End: end}, Message: s}
	}
	source, sink := at(`requests.get("https://news.example.com/today")`), at(`requests.post(url, data=CACHE["page"])`)
	if !source.Loc.Valid() || !sink.Loc.Valid() {
		return nil, nil
	}
	source.Role, sink.Role = prove.RoleSource, prove.RoleSink
	return []prove.Flow{{Tool: "opengrep", RuleID: "fake", Message: "page forwarded", SourceKind: prove.SourceUntrusted,
		SinkKind: prove.SinkEgress, Source: source, Sink: sink, Steps: []prove.Step{source, sink}}}, nil
}

func (p *fakeProver) calls() []prove.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]prove.Request(nil), p.reqs...)
}

// TestExternalProvers: Opengrep runs on the file just saved (with the
// editor's bytes) and CodeQL over the tree after the scan, in the
// background with progress; their flows become toxic-flow diagnostics and
// last until the file changes.
func TestExternalProvers(t *testing.T) {
	og, cq := &fakeProver{name: "opengrep"}, &fakeProver{name: "codeql", hold: make(chan struct{})}
	c, _ := start(t, "../testdata/lsp/hidden-flow", lsptest.Options{Caps: lsptest.RichCaps(), InitOptions: map[string]any{"debounceMs": 10},
		Server: lsp.Options{ProgressDelay: -1, Provers: func(provers.Settings) []prove.Prover { return []prove.Prover{og, cq} }}})
	c.Wait("CodeQL over the tree after the scan", func() bool {
		rs := cq.calls()
		return len(rs) == 1 && rs[0].Files == nil && rs[0].Root == c.Root
	})
	c.Wait("its progress", func() bool {
		for _, e := range c.Events {
			if e.Kind == "begin" && strings.HasPrefix(e.Title, "acg: codeql") {
				return true
			}
		}
		return false
	})
	close(cq.hold)
	c.Open("tools.py")
	text := c.Text("tools.py")
	// Unsaved text is what Opengrep sees when it runs: the buffer.
	edited := strings.Replace(text, `"""Fetch a page and forward it."""`, `"""Fetch a page and forward it (edited)."""`, 1)
	c.Change("tools.py", lsptest.Replace(edited))
	save := func() {
		t.Helper()
		if err := c.Server.DidSave(c.Ctx(), &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("tools.py")}}); err != nil {
			t.Fatal(err)
		}
	}
	save()
	p := c.WaitDiags("tools.py", lsptest.CodesAre("toxic-flow"))
	if og.srcs["tools.py"] != edited {
		t.Error("Opengrep did not get the editor's text")
	}
	if d := p.Diagnostics[0]; d.Range.Start.Line != 15 {
		t.Errorf("toxic-flow at line %d, want the post on line 16", d.Range.Start.Line+1)
	}
	// An edit makes the flow's positions stale: it is dropped until the
	// next save.
	c.Change("tools.py", lsptest.Replace(text))
	c.WaitDiags("tools.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	save()
	c.WaitDiags("tools.py", lsptest.CodesAre("toxic-flow"))
	if n := len(og.calls()); n != 2 {
		t.Errorf("Opengrep ran %d times, want once per save", n)
	}
}
