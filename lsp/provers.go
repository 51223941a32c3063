package lsp

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/provers"
)

// The builtin prover runs with every analysis (incremental.Snapshot). The
// external provers are slow and run apart: Opengrep on the file just saved,
// CodeQL over the whole tree after each workspace scan, both with progress
// and in the background. Their flows wait in a provers.Store, which serves
// a flow only while the files on its path are unchanged, and the next
// analysis merges them in.

// proverSettings locate the external tools: the editor's proverPaths, then
// .acg.yaml's provers section, then PATH.
func (f *folder) proverSettings() provers.Settings {
	st := f.s.settingsNow()
	ps := provers.Settings{Opengrep: st.ProverPaths["opengrep"], CodeQL: st.ProverPaths["codeql"]}
	if cfg, err := f.ws.Snapshot().Config(); err == nil {
		ps = ps.FromConfig(cfg, f.root)
	}
	return ps
}

// prover returns an installed external prover by name ("opengrep",
// "codeql"), or nil; why it is missing is logged once.
func (f *folder) prover(name string) prove.Prover {
	ps := f.proverSettings()
	if ps.Off[name] {
		return nil
	}
	if f.s.opts.Provers != nil {
		for _, p := range f.s.opts.Provers(ps) {
			if p.Name() == name {
				return p
			}
		}
		return nil
	}
	var p prove.Prover
	var err error
	switch name {
	case "opengrep":
		r, e := provers.Opengrep(ps)
		if e == nil {
			p = r
		}
		err = e
	case "codeql":
		r, e := provers.CodeQL(ps)
		if e == nil {
			p = r
		}
		err = e
	}
	if err != nil {
		f.s.logOnce(protocol.MessageTypeInfo, "prover\x00"+name+"\x00"+err.Error(), "%s is not used: %v", name, err)
		return nil
	}
	return p
}

// proveFile runs Opengrep on a saved file, cancelling its previous run.
func (f *folder) proveFile(rel string) {
	if incremental.Kind(rel) != "python" {
		return
	}
	p := f.prover("opengrep")
	if p == nil {
		return
	}
	f.external(p, rel, "acg: opengrep "+rel)
}

// proveTree runs CodeQL over the folder, cancelling its previous run.
func (f *folder) proveTree() {
	if p := f.prover("codeql"); p != nil {
		f.external(p, "", "acg: codeql "+filepath.Base(f.root))
	}
}

// external runs a prover over one file (or the tree, rel "") of the
// current snapshot and stores its flows for the next analysis.
func (f *folder) external(p prove.Prover, rel, title string) {
	key := p.Name() + "\x00" + rel
	ctx, cancel := context.WithCancel(f.s.ctx)
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		cancel()
		return
	}
	if prev := f.proving[key]; prev != nil {
		prev()
	}
	f.proving[key] = cancel
	f.mu.Unlock()
	snap := f.ws.Snapshot()
	go func() {
		defer f.recoverRun(title)
		defer cancel()
		prog := f.s.startProgress(title)
		var files []string
		if rel != "" {
			files = []string{rel}
		}
		req := provers.Request(snap, files)
		req.Progress = func(pr prove.Progress) { prog.message(pr.Message, pr.Percent) }
		flows, err := p.Run(ctx, req)
		if err != nil {
			prog.end("failed")
			if ctx.Err() == nil {
				f.s.logf(protocol.MessageTypeWarning, "%s: %v", title, err)
			}
			return
		}
		prog.end(fmt.Sprintf("%d flows", len(flows)))
		f.store.Put(p.Name(), rel, snap, flows)
		f.runNow()
	}()
}
