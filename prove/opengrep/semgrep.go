package opengrep

// Semgrep CE as the engine. Opengrep forked Semgrep CE, and both read the
// same rules; the `semgrep` package on PyPI ships the real engine. Since
// Semgrep 1.100 its command line withholds the dataflow traces from SARIF
// (no codeFlows) and JSON ("requires login") unless the user logs in to
// Semgrep's service, and a result without its source is no proof of a
// flow. The engine the package ships, semgrep-core, prints the traces: the
// runner asks the command line once where the engine is (`semgrep
// --dump-engine-path`), runs the engine with the same rules, and turns its
// JSON into a SARIF log in Opengrep's threadFlow shape, read by prove/sarif
// like every other prover's. Nothing here logs in, sends metrics or checks
// for updates: the engine has none of that, and the command line is run
// with them switched off.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/internal/proc"
	"github.com/acg-dev/acg/prove/sarif"
)

// Engines of the runner.
const (
	EngineOpengrep = "opengrep"
	EngineSemgrep  = "semgrep"
)

// semgrepEnv keeps the Semgrep command line offline: no metrics, no
// version check (the only network calls it makes without a login).
var semgrepEnv = []string{"SEMGREP_SEND_METRICS=off", "SEMGREP_ENABLE_VERSION_CHECK=0"}

// FindSemgrep locates a Semgrep: the configured path when given, else
// semgrep on PATH. The path may name the command line (`semgrep`) or the
// engine itself (`semgrep-core`).
func FindSemgrep(setting string) (*Runner, error) {
	name := setting
	if name == "" {
		name = "semgrep"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if setting == "" {
			return nil, fmt.Errorf("semgrep: not found on PATH (install it or set its path)")
		}
		return nil, fmt.Errorf("semgrep: %w", err)
	}
	return &Runner{Binary: p, Engine: EngineSemgrep}, nil
}

// engines caches where each Semgrep command line keeps its engine, by the
// program's path, size and time: asking costs the command line's start-up
// (seconds), and the language server asks on every save.
var engines sync.Map // engineKey -> string

type engineKey struct {
	path string
	size int64
	mod  time.Time
}

// core returns the semgrep-core program of the runner's Semgrep.
func (r *Runner) core(ctx context.Context) (string, error) {
	if strings.HasPrefix(filepath.Base(r.Binary), "semgrep-core") {
		return r.Binary, nil
	}
	st, err := os.Stat(r.Binary)
	if err != nil {
		return "", fmt.Errorf("semgrep: %w", err)
	}
	key := engineKey{r.Binary, st.Size(), st.ModTime()}
	if p, ok := engines.Load(key); ok {
		return p.(string), nil
	}
	out, err := proc.RunEnv(ctx, "", 60*time.Second, nil, semgrepEnv, r.Binary, "--dump-engine-path")
	if err != nil {
		return "", fmt.Errorf("semgrep: finding its engine: %w", err)
	}
	p := strings.TrimSpace(lastLine(string(out)))
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("semgrep: %s --dump-engine-path printed %q, not an absolute path", r.Binary, p)
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("semgrep: its engine: %w", err)
	}
	engines.Store(key, p)
	return p, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// semgrepVersion asks the engine (fast, and it never goes online).
func (r *Runner) semgrepVersion(ctx context.Context) (string, error) {
	core, err := r.core(ctx)
	if err != nil {
		return "", err
	}
	out, err := proc.RunEnv(ctx, "", 20*time.Second, nil, semgrepEnv, core, "-version")
	if err != nil {
		return "", err
	}
	// "semgrep-core version: 1.185.0 (7c70dec497)"
	v := strings.TrimSpace(firstLine(string(out)))
	if _, rest, ok := strings.Cut(v, "version:"); ok {
		v = strings.TrimSpace(rest)
	}
	if f := strings.Fields(v); len(f) > 0 {
		v = f[0]
	}
	return v, nil
}

// CoreArgs is the engine's command line: JSON without progress dots, the
// rules file, the targets file; no per-rule timeout (the runner's timeout
// bounds the whole run, and a rule cut short would drop flows silently).
func CoreArgs(rules, targets string) []string {
	return []string{"-json_nodots", "-rules", rules, "-targets", targets, "-timeout", "0"}
}

// runSemgrep scans targets (root-relative files) with the engine.
func (r *Runner) runSemgrep(ctx context.Context, req prove.Request, rules []string, targets []string, timeout time.Duration) ([]prove.Flow, error) {
	core, err := r.core(ctx)
	if err != nil {
		return nil, err
	}
	if len(targets) == 1 && targets[0] == "." {
		// The engine takes files, not roots: the Python files under the root.
		targets, err = pythonFiles(req.Root)
		if err != nil {
			return nil, err
		}
		if len(targets) == 0 {
			return nil, nil
		}
	}
	tmp, err := os.MkdirTemp("", "acg-semgrep-")
	if err != nil {
		return nil, fmt.Errorf("semgrep: %w", err)
	}
	defer os.RemoveAll(tmp)
	rulesFile, err := mergeRules(rules, filepath.Join(tmp, "rules.json"))
	if err != nil {
		return nil, err
	}
	targetsFile := filepath.Join(tmp, "targets.json")
	if err := os.WriteFile(targetsFile, targetsJSON(targets), 0o600); err != nil {
		return nil, fmt.Errorf("semgrep: %w", err)
	}
	req.Report(prove.Progress{Prover: EngineSemgrep, Message: "scanning " + strings.Join(targets, " "), Percent: -1})
	out, err := proc.RunEnv(ctx, req.Root, timeout, nil, semgrepEnv, core, CoreArgs(rulesFile, targetsFile)...)
	req.Report(prove.Progress{Prover: EngineSemgrep, Done: true})
	if err != nil {
		return nil, err
	}
	rep, err := CoreSARIF(out, req.Root, req.Source)
	if err != nil {
		return nil, err
	}
	return sarif.Ingest(rep, sarif.Options{Root: req.Root, Source: req.Source}).Flows, nil
}

func pythonFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".py") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("semgrep: listing %s: %w", root, err)
	}
	return out, nil
}

// targetsJSON is the engine's targets file (semgrep-interfaces' `targets`
// type, as the command line writes it): every file analysed as Python.
func targetsJSON(files []string) []byte {
	type path struct {
		Fpath string `json:"fpath"`
		Ppath string `json:"ppath"`
	}
	type target struct {
		Path     path     `json:"path"`
		Analyzer string   `json:"analyzer"`
		Products []string `json:"products"`
	}
	list := make([]any, 0, len(files))
	for _, f := range files {
		list = append(list, []any{"CodeTarget", target{Path: path{Fpath: f, Ppath: "/" + f}, Analyzer: "python", Products: []string{"sast"}}})
	}
	data, _ := json.Marshal([]any{"Targets", list})
	return data
}

// mergeRules joins the rules of every file (and every .yaml/.yml file of a
// directory) into one JSON rules file: the engine reads one.
func mergeRules(paths []string, out string) (string, error) {
	var all []any
	for _, p := range paths {
		files := []string{p}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			files = nil
			_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && (strings.HasSuffix(q, ".yaml") || strings.HasSuffix(q, ".yml")) {
					files = append(files, q)
				}
				return nil
			})
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", fmt.Errorf("semgrep rules: %w", err)
			}
			var doc struct {
				Rules []any `yaml:"rules"`
			}
			if err := yaml.Unmarshal(data, &doc); err != nil {
				return "", fmt.Errorf("semgrep rules %s: %w", f, err)
			}
			all = append(all, doc.Rules...)
		}
	}
	data, err := json.Marshal(map[string]any{"rules": all})
	if err != nil {
		return "", fmt.Errorf("semgrep rules: %w", err)
	}
	if err := os.WriteFile(out, data, 0o600); err != nil {
		return "", fmt.Errorf("semgrep rules: %w", err)
	}
	return out, nil
}

// The engine's JSON (semgrep-interfaces' core_output), as far as flows go.
type coreOutput struct {
	Version string       `json:"version"`
	Results []coreResult `json:"results"`
	Errors  []struct {
		Level   string `json:"level"`
		Message string `json:"message"`
		Path    string `json:"path"`
	} `json:"errors"`
}

type corePos struct {
	Line   int `json:"line"`
	Col    int `json:"col"` // 1-based, in bytes
	Offset int `json:"offset"`
}

type coreLoc struct {
	Path  string  `json:"path"`
	Start corePos `json:"start"`
	End   corePos `json:"end"`
}

type coreResult struct {
	CheckID string  `json:"check_id"`
	Path    string  `json:"path"`
	Start   corePos `json:"start"`
	End     corePos `json:"end"`
	Extra   struct {
		Message  string `json:"message"`
		Severity string `json:"severity"`
		Metadata struct {
			Tags []string `json:"tags"`
		} `json:"metadata"`
		Trace *struct {
			Source       json.RawMessage `json:"taint_source"`
			Intermediate []struct {
				Location coreLoc `json:"location"`
				Content  string  `json:"content"`
			} `json:"intermediate_vars"`
			Sink json.RawMessage `json:"taint_sink"`
		} `json:"dataflow_trace"`
	} `json:"extra"`
}

// CoreSARIF turns the engine's JSON into a SARIF 2.1.0 log: one result per
// match, its trace as a threadFlow labelled as Opengrep labels its steps
// ("Source:", "Propagator :", "Sink:"), columns as code points (the
// engine counts bytes), and each rule's acg tags on its descriptor. A
// fatal engine error is an error; others (a file that did not parse) are
// left out like Opengrep's.
func CoreSARIF(data []byte, root string, source func(string) []byte) (*gosarif.Report, error) {
	if i := bytes.IndexByte(data, '{'); i > 0 {
		data = data[i:]
	}
	var co coreOutput
	if err := json.Unmarshal(data, &co); err != nil {
		return nil, fmt.Errorf("semgrep output: %w", err)
	}
	for _, e := range co.Errors {
		if strings.EqualFold(e.Level, "fatal") {
			return nil, fmt.Errorf("semgrep: %s", strings.TrimSpace(e.Message))
		}
	}
	cols := colConverter{root: root, source: source, files: map[string][]byte{}}
	rep, _ := gosarif.New(gosarif.Version210)
	driver := &gosarif.ToolComponent{Name: "Semgrep", Rules: []*gosarif.ReportingDescriptor{}}
	if co.Version != "" {
		driver.SemanticVersion = &co.Version
	}
	run := &gosarif.Run{Tool: gosarif.Tool{Driver: driver}, Results: []*gosarif.Result{}, ColumnKind: "unicodeCodePoints"}
	seen := map[string]bool{}
	for _, res := range co.Results {
		if !seen[res.CheckID] {
			seen[res.CheckID] = true
			tags := make([]any, 0, len(res.Extra.Metadata.Tags))
			for _, t := range res.Extra.Metadata.Tags {
				tags = append(tags, t)
			}
			id := res.CheckID
			d := &gosarif.ReportingDescriptor{ID: id, Name: &id}
			d.Properties = gosarif.Properties{"tags": tags}
			driver.Rules = append(driver.Rules, d)
		}
		id, msg := res.CheckID, res.Extra.Message
		sr := &gosarif.Result{RuleID: &id, Message: gosarif.Message{Text: &msg}}
		sink := coreLoc{Path: res.Path, Start: res.Start, End: res.End}
		sr.Locations = []*gosarif.Location{cols.location(sink, "")}
		if t := res.Extra.Trace; t != nil {
			var steps []*gosarif.ThreadFlowLocation
			add := func(l coreLoc, msg string) {
				msg += fmt.Sprintf(" @ '%s:%d'", filepath.ToSlash(l.Path), l.Start.Line) // as Opengrep writes its steps
				steps = append(steps, &gosarif.ThreadFlowLocation{Location: cols.location(l, msg)})
			}
			srcs := traceLocs(t.Source)
			for _, s := range srcs {
				add(s.loc, "Source: '"+s.content+"'")
			}
			for _, v := range t.Intermediate {
				if len(srcs) > 0 && v.Location == srcs[len(srcs)-1].loc {
					continue // the source itself (a parameter is its own first variable)
				}
				add(v.Location, "Propagator : '"+v.Content+"'")
			}
			sinks := traceLocs(t.Sink)
			for i, s := range sinks {
				if i == len(sinks)-1 {
					what := s.content
					if callee := cols.callee(s.loc); callee != "" {
						what = callee
					}
					add(s.loc, "Sink: '"+what+"'")
				} else {
					add(s.loc, "Call: '"+s.content+"'")
				}
			}
			if len(steps) > 0 {
				sr.CodeFlows = []*gosarif.CodeFlow{{ThreadFlows: []*gosarif.ThreadFlow{{Locations: steps}}}}
			}
		}
		run.Results = append(run.Results, sr)
	}
	rep.AddRun(run)
	return rep, nil
}

type traceLoc struct {
	loc     coreLoc
	content string
}

// traceLocs reads a match_call_trace: ["CliLoc", [loc, content]] or, for a
// flow through a call (Semgrep Pro only), ["CliCall", [[loc, content],
// intermediate vars, inner trace]]: the call site, then the inner trace.
func traceLocs(raw json.RawMessage) []traceLoc {
	var tagged []json.RawMessage
	if json.Unmarshal(raw, &tagged) != nil || len(tagged) != 2 {
		return nil
	}
	var tag string
	if json.Unmarshal(tagged[0], &tag) != nil {
		return nil
	}
	switch tag {
	case "CliLoc":
		if l, ok := locAndContent(tagged[1]); ok {
			return []traceLoc{l}
		}
	case "CliCall":
		var parts []json.RawMessage
		if json.Unmarshal(tagged[1], &parts) != nil || len(parts) != 3 {
			return nil
		}
		var out []traceLoc
		if l, ok := locAndContent(parts[0]); ok {
			out = append(out, l)
		}
		return append(out, traceLocs(parts[2])...)
	}
	return nil
}

func locAndContent(raw json.RawMessage) (traceLoc, bool) {
	var pair []json.RawMessage
	if json.Unmarshal(raw, &pair) != nil || len(pair) != 2 {
		return traceLoc{}, false
	}
	var t traceLoc
	if json.Unmarshal(pair[0], &t.loc) != nil {
		return traceLoc{}, false
	}
	_ = json.Unmarshal(pair[1], &t.content)
	return t, true
}

// colConverter turns the engine's byte columns into code points against
// the file's bytes (the snapshot's, else the file under root).
type colConverter struct {
	root   string
	source func(string) []byte
	files  map[string][]byte
}

func (c colConverter) bytesOf(rel string) []byte {
	if b, ok := c.files[rel]; ok {
		return b
	}
	var b []byte
	if c.source != nil {
		b = c.source(rel)
	}
	if b == nil && c.root != "" && filepath.IsLocal(filepath.FromSlash(rel)) {
		b, _ = os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
	}
	c.files[rel] = b
	return b
}

func (c colConverter) col(rel string, p corePos) int {
	src := c.bytesOf(rel)
	if src == nil || p.Offset < 0 || p.Offset > len(src) || p.Col < 1 {
		return p.Col
	}
	start := p.Offset - (p.Col - 1)
	if start < 0 {
		return p.Col
	}
	return utf8.RuneCount(src[start:p.Offset]) + 1
}

func (c colConverter) location(l coreLoc, msg string) *gosarif.Location {
	uri := filepath.ToSlash(l.Path)
	region := &gosarif.Region{StartLine: intp(l.Start.Line), StartColumn: intp(c.col(l.Path, l.Start)),
		EndLine: intp(l.End.Line), EndColumn: intp(c.col(l.Path, l.End))}
	loc := &gosarif.Location{PhysicalLocation: &gosarif.PhysicalLocation{
		ArtifactLocation: &gosarif.ArtifactLocation{URI: &uri}, Region: region}}
	if msg != "" {
		loc.Message = &gosarif.Message{Text: &msg}
	}
	return loc
}

// callee names the call whose argument l is (requests.post for `data`
// in requests.post(url, data=data)): the rules make an argument the sink,
// and acg names a sink by its call, one finding per call site. "" when the
// text before the argument is not a plain call.
func (c colConverter) callee(l coreLoc) string {
	src := c.bytesOf(l.Path)
	off := l.Start.Offset
	if src == nil || off <= 0 || off > len(src) {
		return ""
	}
	depth := 0
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case ')', ']', '}':
			depth++
		case '[', '{':
			if depth == 0 {
				return ""
			}
			depth--
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			j := i
			for j > 0 && (isIdent(src[j-1]) || src[j-1] == '.') {
				j--
			}
			return string(src[j:i])
		case '\n', '"', '\'':
			if depth == 0 {
				return "" // a string or another line before the call: unsure
			}
		}
	}
	return ""
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func intp(i int) *int { return &i }
