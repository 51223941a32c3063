package incremental

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
)

// configKind is the file kind of the workspace's .acg.yaml: a workspace
// file like any other, so the language server re-analyses when it changes.
const configKind = "acg-config"

func init() {
	RegisterKind(func(rel string) string {
		if rel == config.FileName {
			return configKind
		}
		return ""
	})
	// The config has no facts; Analyze reads its bytes (runChecks).
	RegisterExtractor(configKind, func(rel string, _ []byte, _ *sitter.Tree) *extract.File {
		return &extract.File{Path: rel, Lang: extract.LangYAML}
	})
}

// WithConfig returns a snapshot of the same files analysed under c instead
// of the workspace's .acg.yaml (acg scan --config).
func (s *Snapshot) WithConfig(c *config.Config) *Snapshot {
	n := s.With(s.Seq, nil, nil)
	n.cfg = c
	return n
}

// Config returns the configuration in force (nil for none); Analyze
// reports its errors as well.
func (s *Snapshot) Config() (*config.Config, error) { return s.loadConfig() }

// loadConfig returns the config in force: the one given to WithConfig, else
// the workspace's .acg.yaml, else none.
func (s *Snapshot) loadConfig() (*config.Config, error) {
	if s.cfg != nil {
		return s.cfg, nil
	}
	f := s.File(config.FileName)
	if f == nil {
		return nil, nil
	}
	if f.Skipped != "" && f.Src == nil {
		return nil, config.Errors{{File: f.Path, Msg: f.Skipped}}
	}
	return config.Parse(f.Path, f.Src)
}

// KnownRules lists every rule a finding can have: the registered checks
// and invalid-suppression.
func KnownRules() []string {
	out := []string{policy.RuleInvalidSuppression}
	for _, c := range policy.Checks() {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

// runChecks applies the config to an analysed graph and runs the checks:
// tool overrides first (they change what the checks see), then the enabled
// checks, the severity threshold, and suppressions. A config with errors
// is reported and otherwise ignored: every finding stays (fail closed).
func (s *Snapshot) runChecks(r *Result) {
	cfg, err := s.loadConfig()
	if err == nil && cfg != nil {
		err = cfg.CheckRules(KnownRules())
	}
	if err != nil {
		r.ConfigErr = err
		r.Problems = append(r.Problems, configProblems(err)...)
		cfg = nil
	}
	r.Config = cfg
	applyOverrides(r.Graph, cfg)
	var enabled map[string]bool
	if cfg != nil && len(cfg.DisabledRules) > 0 {
		enabled = map[string]bool{}
		for _, c := range policy.Checks() {
			enabled[c.Name] = !cfg.Disabled(c.Name)
		}
	}
	in := &policy.Input{Graph: r.Graph, Flows: r.Flows}
	for _, f := range s.Files() {
		if f.Facts() != nil {
			in.Poisoned = append(in.Poisoned, f.Facts().Poison...)
		}
	}
	if cfg != nil {
		in.ChainPatterns = cfg.ChainPatterns
	}
	findings, failed := policy.Run(in, enabled)
	r.CheckFailures = failed
	ignores, invalid := s.inlineIgnores()
	if !cfg.Disabled(policy.RuleInvalidSuppression) {
		findings = append(findings, invalid...)
		policy.Sort(findings)
	}
	if cfg != nil && cfg.SeverityThreshold != "" {
		min, _ := policy.ParseSeverity(cfg.SeverityThreshold)
		kept := findings[:0]
		for _, f := range findings {
			if f.Severity.Rank() >= min.Rank() {
				kept = append(kept, f)
			}
		}
		findings = kept
	}
	// Suppressions by tool match a tool's name or id, whichever the
	// finding names.
	toolKeys := map[string][]string{}
	for _, t := range r.Graph.Tools {
		toolKeys[t.Name] = append(toolKeys[t.Name], t.Name, t.ID)
		toolKeys[t.ID] = append(toolKeys[t.ID], t.Name, t.ID)
	}
	r.Findings = nil
	for _, f := range findings {
		if sup := s.suppression(f, toolKeys, cfg, ignores); sup != nil {
			c := *f
			c.Suppression = sup
			r.Suppressed = append(r.Suppressed, &c)
			continue
		}
		r.Findings = append(r.Findings, f)
	}
}

func configProblems(err error) []extract.Problem {
	var es config.Errors
	if !errors.As(err, &es) {
		return []extract.Problem{{Message: err.Error()}}
	}
	out := make([]extract.Problem, len(es))
	for i, e := range es {
		p := extract.Point{Line: int32(e.Line), Col: int32(e.Column)}
		out[i] = extract.Problem{Loc: extract.Loc{File: e.File, Start: p, End: p}, Message: e.Msg}
	}
	return out
}

// applyOverrides replaces the effects of the tools the config declares.
func applyOverrides(g *capgraph.Graph, cfg *config.Config) {
	if cfg == nil || len(cfg.Tools) == 0 {
		return
	}
	for _, t := range g.Tools {
		for _, o := range cfg.Overrides(t.ID, t.Name) {
			set := map[effects.Label]bool{}
			for l, v := range o.Effects {
				set[effects.Label(l)] = v
			}
			at := extract.Point{Line: int32(o.Line), Col: int32(o.Column)}
			t.Effects = effects.Override(t.Effects, set, o.Complete, o.Reason, extract.Loc{File: cfg.Path, Start: at, End: at})
		}
	}
}

// ignore is a valid inline suppression found in a file.
type ignore struct {
	config.Ignore
	file string
}

// inlineIgnores finds the `# acg: ignore[...]` comments of every file: the
// valid ones, and a finding for each that cannot be honoured.
func (s *Snapshot) inlineIgnores() (map[string][]ignore, []*policy.Finding) {
	known := map[string]bool{}
	for _, r := range KnownRules() {
		known[r] = true
	}
	valid := map[string][]ignore{}
	var invalid []*policy.Finding
	for _, f := range s.Files() {
		seen := map[string]int{}
		for _, c := range f.comments {
			ig, ok, err := config.ParseIgnore(c.text)
			if !ok {
				continue
			}
			if err == nil {
				for _, r := range ig.Rules {
					if !known[r] {
						err = fmt.Errorf("unknown rule %q (known: %s)", r, strings.Join(KnownRules(), ", "))
						break
					}
				}
			}
			if err != nil {
				n := seen[c.text]
				seen[c.text]++
				invalid = append(invalid, policy.InvalidSuppression(c.loc, c.text, err.Error(), n))
				continue
			}
			ig.Pos = config.Pos{Line: int(c.loc.Start.Line), Column: int(c.loc.Start.Col)}
			valid[f.Path] = append(valid[f.Path], ignore{ig, f.Path})
		}
	}
	return valid, invalid
}

type comment struct {
	text string
	loc  extract.Loc
}

// comments returns the comments of src that may hold an acg directive.
// Python comments come from the parse tree (never a `#` inside a string);
// other files with # comments (YAML, TOML) count whole comment lines only.
// Files keep the answer rather than the tree (see File).
func comments(path string, src []byte, tree *sitter.Tree) []comment {
	var out []comment
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte("acg:"))
		if i < 0 {
			break
		}
		at := off + i
		off = at + 4
		if tree != nil {
			ls := bytes.LastIndexByte(src[:at], '\n') + 1
			pt := sitter.Point{Row: uint32(bytes.Count(src[:at], []byte("\n"))), Column: uint32(at - ls)}
			n := tree.RootNode().NamedDescendantForPointRange(pt, pt)
			if n == nil || n.Type() != "comment" {
				continue
			}
			out = append(out, comment{text: n.Content(src), loc: locOf(src, int(n.StartByte()), int(n.EndByte()), path)})
			off = int(n.EndByte())
			continue
		}
		start := bytes.LastIndexByte(src[:at], '\n') + 1
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		line := src[start:end]
		if h := bytes.IndexByte(line, '#'); h >= 0 && len(bytes.TrimSpace(line[:h])) == 0 {
			out = append(out, comment{text: string(bytes.TrimRight(line[h:], "\r")), loc: locOf(src, start+h, end, path)})
		}
		off = end
	}
	return out
}

func locOf(src []byte, start, end int, file string) extract.Loc {
	return extract.Loc{File: file, Start: pointOf(src, start), End: pointOf(src, end)}
}

func pointOf(src []byte, off int) extract.Point {
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	return extract.Point{Line: int32(bytes.Count(src[:off], []byte("\n")) + 1), Col: int32(extract.UTF16Len(src[ls:off]) + 1), Byte: int32(off)}
}

// suppression says why a finding is suppressed, or nil: an inline comment
// at the finding, else a config entry.
func (s *Snapshot) suppression(f *policy.Finding, toolKeys map[string][]string, cfg *config.Config, ignores map[string][]ignore) *policy.Suppression {
	if igs := ignores[f.Location.File]; len(igs) > 0 && s.File(f.Location.File) != nil {
		lines := config.Lines(s.File(f.Location.File).CodeText())
		for _, ig := range igs {
			if ig.Covers(f.Rule) && config.Applies(lines, ig.Line, f.Location.Line) {
				return &policy.Suppression{Kind: "inSource", Justification: ig.Reason,
					Location: policy.Location{File: ig.file, Line: ig.Line, Column: ig.Column}}
			}
		}
	}
	if cfg == nil || len(cfg.Suppressions) == 0 {
		return nil
	}
	sub := config.Subject{ID: f.ID, Rule: f.Rule, Agent: []string{f.Agent, f.AgentID}}
	names := append(append([]string{f.Source, f.Sink}, f.Chain...), f.SinkIDs...)
	if f.Legs != nil {
		names = append(append(append(names, f.Legs.Untrusted...), f.Legs.Private...), f.Legs.Action...)
	}
	for _, n := range names {
		sub.Tools = append(sub.Tools, toolKeys[n]...)
	}
	if x := cfg.Suppressed(sub); x != nil {
		return &policy.Suppression{Kind: "external", Justification: x.Reason,
			Location: policy.Location{File: cfg.Path, Line: x.Line, Column: x.Column}}
	}
	return nil
}
