package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/termsafe"
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
// $ACG_OPENGREP / $ACG_CODEQL, then the user's config file (outside the
// folder), then PATH; never the folder's .acg.yaml, which only switches
// provers and adds rule files inside the folder. What it asked for and the
// server ignored is said once (tellIgnored).
func (f *folder) proverSettings() provers.Settings {
	st := f.s.settingsNow()
	ps := provers.Settings{Opengrep: st.ProverPaths["opengrep"], Semgrep: st.ProverPaths["semgrep"], CodeQL: st.ProverPaths["codeql"], Flag: "the editor setting acg.proverPaths.%s"}
	user, ignored, err := provers.UserConfig(f.root)
	if err != nil {
		f.s.logOnce(protocol.MessageTypeWarning, "user config\x00"+err.Error(), "%v (its prover paths are not used)", err)
	}
	ps.User = user
	var notices []error
	if ignored != nil {
		notices = append(notices, ignored)
	}
	if cfg, err := f.ws.Snapshot().Config(); err == nil {
		var more []error
		ps, more = ps.FromConfig(cfg, f.root)
		notices = append(notices, more...)
	}
	f.tellIgnored(ps, notices)
	return ps
}

// tellIgnored logs each thing the folder's configuration asked for and the
// server ignored, and shows the user a warning about them once per folder:
// a prover they expected may not run, and they should know why.
func (f *folder) tellIgnored(ps provers.Settings, notices []error) {
	if len(notices) == 0 {
		return
	}
	var keys []string
	for _, n := range notices {
		msg := n.Error()
		if e, ok := n.(*provers.Ignored); ok {
			at := *e.At
			if !filepath.IsAbs(at.File) {
				at.File = filepath.Join(f.root, at.File) // the log has no folder otherwise
			}
			msg = at.Error()
			keys = append(keys, e.Key+" in "+filepath.ToSlash(e.At.File))
		} else {
			keys = append(keys, "a user config file inside the folder")
		}
		f.s.logOnce(protocol.MessageTypeWarning, f.root+"\x00ignored\x00"+msg, "%s", msg)
	}
	key := "shown\x00ignored\x00" + f.root
	f.s.mu.Lock()
	seen := f.s.logged[key]
	f.s.logged[key] = true
	f.s.mu.Unlock()
	if seen || f.s.client == nil {
		return
	}
	msg := fmt.Sprintf("acg ignores what the folder %s asks for: %s. acg never runs a program named by the repository it scans, and reads rule files only from inside it; name your Opengrep and CodeQL in the editor setting acg.proverPaths or in %s. The log has the details.",
		f.root, strings.Join(keys, "; "), userConfigPath(ps))
	_ = f.s.client.ShowMessage(f.s.ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: termsafe.String(msg)})
}

func userConfigPath(ps provers.Settings) string {
	if ps.User != nil {
		return ps.User.Path
	}
	if p, err := config.UserPath(); err == nil {
		return p
	}
	return "~/.config/acg/config.yaml"
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

// patternProver returns the Opengrep-compatible engine the engine
// setting chooses (provers.Pattern: auto is Opengrep, else Semgrep), or
// nil; why it is missing is logged once.
func (f *folder) patternProver() prove.Prover {
	engine := f.s.settingsNow().Engine
	ps := f.proverSettings()
	if f.s.opts.Provers != nil {
		var og, sg prove.Prover
		for _, p := range f.s.opts.Provers(ps) {
			switch p.Name() {
			case "opengrep":
				og = p
			case "semgrep":
				sg = p
			}
		}
		switch {
		case engine == "opengrep" || (engine == "" || engine == "auto") && og != nil && !ps.Off["opengrep"]:
			return og
		case engine == "semgrep" || (engine == "" || engine == "auto") && sg != nil && !ps.Off["semgrep"]:
			return sg
		}
		return nil
	}
	r, missing, err := provers.Pattern(engine, ps)
	name := "opengrep"
	if engine == "semgrep" {
		name = "semgrep"
	}
	for _, e := range append(missing, err) {
		if e != nil {
			f.s.logOnce(protocol.MessageTypeInfo, "prover\x00pattern\x00"+e.Error(), "%s is not used: %v", name, e)
		}
	}
	if r == nil {
		return nil
	}
	return r
}

// proveFile runs Opengrep (or Semgrep) on a saved file, cancelling its
// previous run.
func (f *folder) proveFile(rel string) {
	if incremental.Kind(rel) != "python" {
		return
	}
	p := f.patternProver()
	if p == nil {
		return
	}
	f.external(p, rel, "acg: "+p.Name()+" "+rel)
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
