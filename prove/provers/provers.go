// Package provers picks and drives the flow provers for a run: the builtin
// engine (inside incremental's analysis) plus Opengrep and CodeQL when
// installed. It is what `acg scan --engine` and `acg doctor` call, and what
// the language server calls to run the external provers.
package provers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/codeql"
	"github.com/acg-dev/acg/prove/opengrep"
)

// Engines are the values of --engine.
var Engines = []string{"builtin", "opengrep", "codeql", "auto"}

// Settings locate the external tools; empty means PATH (the environment
// variables ACG_OPENGREP and ACG_CODEQL fill empty settings).
type Settings struct {
	Opengrep string
	CodeQL   string
	// OpengrepRules and CodeQLQueries run beside the bundled rules and packs.
	OpengrepRules []string
	CodeQLQueries []string
	// Off names the provers auto leaves out.
	Off map[string]bool
}

// FromConfig fills what the flags left open from .acg.yaml's provers
// section: executable paths, extra rules (relative to root) and provers
// switched off. cfg may be nil.
func (s Settings) FromConfig(cfg *config.Config, root string) Settings {
	if cfg == nil {
		return s
	}
	abs := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if !filepath.IsAbs(p) {
				p = filepath.Join(root, p)
			}
			out = append(out, p)
		}
		return out
	}
	for name, pr := range cfg.Provers {
		if !pr.Enabled {
			if s.Off == nil {
				s.Off = map[string]bool{}
			}
			s.Off[name] = true
		}
		switch name {
		case "opengrep":
			if s.Opengrep == "" {
				s.Opengrep = pr.Path
			}
			s.OpengrepRules = append(s.OpengrepRules, abs(pr.Rules)...)
		case "codeql":
			if s.CodeQL == "" {
				s.CodeQL = pr.Path
			}
			s.CodeQLQueries = append(s.CodeQLQueries, abs(pr.Rules)...)
		}
	}
	return s
}

func (s Settings) withEnv() Settings {
	if s.Opengrep == "" {
		s.Opengrep = os.Getenv("ACG_OPENGREP")
	}
	if s.CodeQL == "" {
		s.CodeQL = os.Getenv("ACG_CODEQL")
	}
	return s
}

// Selection is what an engine choice runs.
type Selection struct {
	Builtin  bool
	External []prove.Prover
	// Strict makes an external prover's failure an error (a named engine)
	// rather than a warning (auto).
	Strict bool
}

// Opengrep and CodeQL return the external provers when they can be found.
func Opengrep(s Settings) (*opengrep.Runner, error) {
	r, err := opengrep.Find(s.withEnv().Opengrep)
	if r != nil {
		r.Extra = s.OpengrepRules
	}
	return r, err
}

func CodeQL(s Settings) (*codeql.Runner, error) {
	r, err := codeql.Find(s.withEnv().CodeQL)
	if r != nil {
		r.Extra = s.CodeQLQueries
	}
	return r, err
}

// Select resolves an engine name. A named external engine that is not
// installed is an error; auto takes builtin plus whatever is installed,
// less what the settings switch off.
func Select(engine string, s Settings) (Selection, error) {
	switch engine {
	case "builtin":
		return Selection{Builtin: true}, nil
	case "opengrep":
		r, err := Opengrep(s)
		if err != nil {
			return Selection{}, err
		}
		return Selection{External: []prove.Prover{r}, Strict: true}, nil
	case "codeql":
		r, err := CodeQL(s)
		if err != nil {
			return Selection{}, err
		}
		return Selection{External: []prove.Prover{r}, Strict: true}, nil
	case "auto", "":
		sel := Selection{Builtin: !s.Off["builtin"]}
		if r, err := Opengrep(s); err == nil && !s.Off["opengrep"] {
			sel.External = append(sel.External, r)
		}
		if r, err := CodeQL(s); err == nil && !s.Off["codeql"] {
			sel.External = append(sel.External, r)
		}
		return sel, nil
	}
	return Selection{}, fmt.Errorf("unknown engine %q: want builtin, opengrep, codeql or auto", engine)
}

// Run runs the external provers of a selection over a whole snapshot, one
// after the other (each is heavy), and merges their flows. A prover that
// fails is reported and skipped.
func (sel Selection) Run(ctx context.Context, snap *incremental.Snapshot, progress func(prove.Progress)) ([]prove.Flow, []error) {
	req := Request(snap, nil)
	req.Progress = progress
	var sets [][]prove.Flow
	var errs []error
	for _, p := range sel.External {
		fls, err := p.Run(ctx, req)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.Name(), err))
			continue
		}
		sets = append(sets, fls)
	}
	return prove.Merge(sets...), errs
}

// Analyze analyses a snapshot with the selection: the snapshot's cached
// analysis when only the builtin prover runs, else one with the external
// provers' flows. Their failures are warnings, or the error when Strict.
func (sel Selection) Analyze(ctx context.Context, snap *incremental.Snapshot) (*incremental.Result, []error, error) {
	if len(sel.External) == 0 {
		return snap.Analyze(), nil, nil
	}
	flows, errs := sel.Run(ctx, snap, nil)
	if sel.Strict && len(errs) > 0 {
		return nil, nil, errs[0]
	}
	return snap.AnalyzeWith(flows, sel.Builtin), errs, nil
}

// Request builds a prover request for a snapshot: its root, the files (all
// when nil), the tree's fingerprint and its current bytes.
func Request(snap *incremental.Snapshot, files []string) prove.Request {
	return prove.Request{Root: snap.Root, Files: files, Fingerprint: Fingerprint(snap), Source: func(rel string) []byte {
		if f := snap.File(rel); f != nil {
			return f.Src
		}
		return nil
	}}
}

// Fingerprint identifies the content of a snapshot's Python files.
func Fingerprint(snap *incremental.Snapshot) string {
	h := sha256.New()
	for _, f := range snap.Files() {
		if f.Kind != "python" {
			continue
		}
		h.Write([]byte(f.Path))
		h.Write([]byte{0})
		h.Write(f.Hash[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Doctor prints which provers are available and their versions.
func Doctor(ctx context.Context, s Settings, version string, w io.Writer) {
	fmt.Fprintf(w, "%-9s available  acg %s (embedded: intra-file, inter-procedural taint)\n", "builtin", version)
	if r, err := Opengrep(s); err != nil {
		fmt.Fprintf(w, "%-9s missing    %v\n", "opengrep", err)
	} else {
		report(ctx, w, r, r.Binary)
	}
	if r, err := CodeQL(s); err != nil {
		fmt.Fprintf(w, "%-9s missing    %v\n", "codeql", err)
	} else {
		report(ctx, w, r, r.Binary)
	}
}

func report(ctx context.Context, w io.Writer, p prove.Prover, path string) {
	v, err := p.Version(ctx)
	if err != nil {
		fmt.Fprintf(w, "%-9s broken     %s: %v\n", p.Name(), path, err)
		return
	}
	fmt.Fprintf(w, "%-9s available  %s (%s)\n", p.Name(), v, path)
}
