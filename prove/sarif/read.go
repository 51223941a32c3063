// Package sarif moves proven flows in and out of SARIF 2.1.0 with
// github.com/owenrumney/go-sarif/v2: Read turns the path-problem results of
// CodeQL, Opengrep and acg's own builtin prover into prove.Flows; Write
// emits flows as results with codeFlows/threadFlows. Every prover's output
// goes through Ingest, so the builtin engine and the external tools are read
// by one code path.
package sarif

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
)

// Options say how to read a SARIF log.
type Options struct {
	// Root is the workspace root. %SRCROOT% and relative URIs resolve
	// against it; locations outside it are rejected.
	Root string
	// Source returns a file's bytes so byte offsets and UTF-16 columns can
	// be computed; nil leaves byte offsets at -1 and columns as given.
	Source func(rel string) []byte
}

// Result is what a SARIF log held.
type Result struct {
	Flows []prove.Flow
	// Skipped counts results that carry no path (plain problems, Opengrep
	// runs without --dataflow-traces).
	Skipped int
	// Rejected says why paths were dropped (locations outside the root,
	// regions without a line). A path with a hole is not a proof.
	Rejected []string
}

// Read parses a SARIF log and ingests it. Leading non-JSON lines (a tool's
// banner on stdout) are skipped.
func Read(data []byte, opt Options) (*Result, error) {
	data = trimPreamble(data)
	rep, err := gosarif.FromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("sarif: %w", err)
	}
	if rep.Version != "" && !strings.HasPrefix(rep.Version, "2.1") {
		return nil, fmt.Errorf("sarif: version %q: want 2.1.0", rep.Version)
	}
	return Ingest(rep, opt), nil
}

func trimPreamble(data []byte) []byte {
	for len(data) > 0 {
		t := bytes.TrimLeft(data, " \t\r\n\ufeff")
		if len(t) == 0 || t[0] == '{' {
			return t
		}
		i := bytes.IndexByte(t, '\n')
		if i < 0 {
			return t
		}
		data = t[i+1:]
	}
	return data
}

// Ingest turns every result with a path into flows: one flow per
// threadFlow (CodeQL often gives several paths for one result).
func Ingest(rep *gosarif.Report, opt Options) *Result {
	out := &Result{}
	files := newFileCache(opt.Source)
	for _, run := range rep.Runs {
		if run == nil {
			continue
		}
		rd := &runReader{opt: opt, run: run, tool: toolName(run), colKind: columnKind(run), files: files, out: out}
		rd.rules()
		for _, res := range run.Results {
			if res != nil {
				rd.result(res)
			}
		}
	}
	return out
}

type runReader struct {
	opt     Options
	run     *gosarif.Run
	tool    string
	colKind string
	files   *fileCache
	out     *Result
	// tags of each rule by id, from driver.rules and every extension.
	tags map[string][]string
	// byRef finds a rule by (toolComponent index, rule index); -1 is the driver.
	byRef map[[2]int]string
	// pathProblem marks rules whose results are flows (CodeQL @kind).
	pathProblem map[string]bool
}

func toolName(run *gosarif.Run) string {
	if run.Tool.Driver == nil {
		return "unknown"
	}
	n := strings.ToLower(run.Tool.Driver.Name)
	switch {
	case strings.Contains(n, "opengrep"):
		return "opengrep"
	case strings.Contains(n, "semgrep"): // Semgrep CE, the engine Opengrep forked
		return "semgrep"
	case strings.Contains(n, "codeql"):
		return "codeql"
	case n == builtinDriver:
		return "builtin"
	case n == "":
		return "unknown"
	}
	return n
}

func columnKind(run *gosarif.Run) string {
	if s, ok := run.ColumnKind.(string); ok && s != "" {
		return s
	}
	return "unicodeCodePoints"
}

func (rd *runReader) rules() {
	rd.tags, rd.byRef, rd.pathProblem = map[string][]string{}, map[[2]int]string{}, map[string]bool{}
	add := func(comp int, rules []*gosarif.ReportingDescriptor) {
		for i, r := range rules {
			if r == nil {
				continue
			}
			rd.byRef[[2]int{comp, i}] = r.ID
			rd.tags[r.ID] = append(rd.tags[r.ID], stringsOf(r.Properties["tags"])...)
			if k, _ := r.Properties["kind"].(string); k == "path-problem" {
				rd.pathProblem[r.ID] = true
			}
		}
	}
	if rd.run.Tool.Driver != nil {
		add(-1, rd.run.Tool.Driver.Rules)
	}
	for k, ext := range rd.run.Tool.Extensions {
		if ext != nil {
			add(k, ext.Rules)
		}
	}
}

func stringsOf(v any) []string {
	xs, _ := v.([]any)
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// ruleID resolves a result's rule: ruleId, else rule.id, else the rule
// reference into driver.rules or tool.extensions[k].rules.
func (rd *runReader) ruleID(res *gosarif.Result) string {
	if res.RuleID != nil && *res.RuleID != "" {
		return *res.RuleID
	}
	comp, idx := -1, -1
	if res.RuleIndex != nil {
		idx = int(*res.RuleIndex)
	}
	if r := res.Rule; r != nil {
		if r.Id != nil && *r.Id != "" {
			return *r.Id
		}
		if r.Index != nil {
			idx = int(*r.Index)
		}
		if r.ToolComponent != nil && r.ToolComponent.Index != nil {
			comp = int(*r.ToolComponent.Index)
		}
	}
	return rd.byRef[[2]int{comp, idx}]
}

func (rd *runReader) result(res *gosarif.Result) {
	rule := rd.ruleID(res)
	msg := ""
	if res.Message.Text != nil {
		msg = *res.Message.Text
	}
	srcKind, sinkKind := rd.kinds(rule)
	var paths [][]*gosarif.ThreadFlowLocation
	for _, cf := range res.CodeFlows {
		if cf == nil {
			continue
		}
		for _, tf := range cf.ThreadFlows {
			if tf != nil && len(tf.Locations) > 0 {
				paths = append(paths, tf.Locations)
			}
		}
	}
	if len(paths) == 0 {
		if fl, ok := rd.relatedPath(res, rule, msg, srcKind, sinkKind); ok {
			rd.out.Flows = append(rd.out.Flows, fl)
			return
		}
		rd.out.Skipped++
		return
	}
	for _, p := range paths {
		fl := prove.Flow{Tool: rd.tool, RuleID: rule, Message: msg, SourceKind: srcKind, SinkKind: sinkKind}
		ok := true
		for _, tfl := range p {
			if tfl == nil || tfl.Location == nil {
				continue
			}
			st, err := rd.step(tfl.Location)
			if err != nil {
				rd.reject(rule, err)
				ok = false
				break
			}
			if tfl.NestingLevel != nil {
				st.Nesting = *tfl.NestingLevel
			}
			st.Role = roleOf(st.Message)
			fl.Steps = append(fl.Steps, st)
		}
		if !ok || len(fl.Steps) == 0 {
			if ok {
				rd.out.Skipped++
			}
			continue
		}
		finish(&fl)
		rd.out.Flows = append(rd.out.Flows, fl)
	}
}

// relatedPath reads a path-problem result without codeFlows: the primary
// location is the sink and the related location its message links to
// ("[user-provided value](1)") the source. Plain problems link related
// locations too (py/polluting-import) and are not flows.
func (rd *runReader) relatedPath(res *gosarif.Result, rule, msg, srcKind, sinkKind string) (prove.Flow, bool) {
	if !rd.pathProblem[rule] || len(res.Locations) == 0 || res.Locations[0] == nil || len(res.RelatedLocations) == 0 {
		return prove.Flow{}, false
	}
	m := linkRef.FindStringSubmatch(msg)
	if m == nil {
		return prove.Flow{}, false
	}
	var src *gosarif.Location
	for _, rl := range res.RelatedLocations {
		if rl != nil && rl.Id != nil && fmt.Sprint(*rl.Id) == m[1] {
			src = rl
		}
	}
	if src == nil {
		return prove.Flow{}, false
	}
	a, err := rd.step(src)
	if err != nil {
		rd.reject(rule, err)
		return prove.Flow{}, false
	}
	b, err := rd.step(res.Locations[0])
	if err != nil {
		rd.reject(rule, err)
		return prove.Flow{}, false
	}
	fl := prove.Flow{Tool: rd.tool, RuleID: rule, Message: msg, SourceKind: srcKind, SinkKind: sinkKind, Steps: []prove.Step{a, b}}
	finish(&fl)
	return fl, true
}

var linkRef = regexp.MustCompile(`\]\((\d+)\)`)

func (rd *runReader) reject(rule string, err error) {
	const max = 20
	if len(rd.out.Rejected) < max {
		rd.out.Rejected = append(rd.out.Rejected, fmt.Sprintf("%s (%s): %v", rule, rd.tool, err))
	}
}

// finish names the ends. Opengrep labels them ("Source:", "Sink:"); for
// everyone else the first step is the source and the last the sink.
func finish(fl *prove.Flow) {
	si, ki := 0, len(fl.Steps)-1
	for i, s := range fl.Steps {
		switch s.Role {
		case prove.RoleSource:
			if fl.Steps[si].Role != prove.RoleSource {
				si = i
			}
		case prove.RoleSink:
			ki = i
		}
	}
	fl.Steps[si].Role = prove.RoleSource
	fl.Steps[ki].Role = prove.RoleSink
	for i := range fl.Steps {
		if fl.Steps[i].Role == "" {
			fl.Steps[i].Role = prove.RoleStep
		}
	}
	fl.Source, fl.Sink = fl.Steps[si], fl.Steps[ki]
}

// roleOf reads Opengrep's step messages: "Source: '…' @ '…'",
// "Propagator : '…'", "Call: '…'", "Sink: '…'".
func roleOf(msg string) string {
	head, _, ok := strings.Cut(msg, ":")
	if !ok {
		return ""
	}
	switch strings.TrimSpace(head) {
	case "Source":
		return prove.RoleSource
	case "Propagator":
		return prove.RoleStep
	case "Call":
		return prove.RoleCall
	case "Sink":
		return prove.RoleSink
	}
	return ""
}

// kinds classifies a rule's ends: acg's tags ("acg-source:untrusted",
// "acg-sink:egress") on its own rules, Opengrep rules and CodeQL queries;
// else the known CodeQL query ids.
func (rd *runReader) kinds(rule string) (src, sink string) {
	for _, t := range rd.tags[rule] {
		if v, ok := strings.CutPrefix(t, "acg-source:"); ok {
			src = v
		}
		if v, ok := strings.CutPrefix(t, "acg-sink:"); ok {
			sink = v
		}
	}
	if sink == "" {
		sink = codeqlSinks[rule]
	}
	return src, sink
}

// codeqlSinks maps CodeQL's Python path-problem queries to sink kinds.
// Their sources are remote flow sources (and, with acg's model pack, tool
// parameters: toxicflow tells the two apart by location).
var codeqlSinks = map[string]string{
	"py/command-line-injection":               prove.SinkExec,
	"py/shell-command-constructed-from-input": prove.SinkExec,
	"py/code-injection":                       prove.SinkExec,
	"py/unsafe-deserialization":               prove.SinkExec,
	"py/sql-injection":                        prove.SinkWrite,
	"py/nosql-injection":                      prove.SinkWrite,
	"py/path-injection":                       prove.SinkWrite,
	"py/full-ssrf":                            prove.SinkEgress,
	"py/partial-ssrf":                         prove.SinkEgress,
	"py/prompt-injection":                     prove.SinkPrompt,
	"py/system-prompt-injection":              prove.SinkPrompt,
	"py/user-prompt-injection":                prove.SinkPrompt,
}

// step converts a location; it fails when the location is not a region of
// a file inside the root.
func (rd *runReader) step(l *gosarif.Location) (prove.Step, error) {
	st := prove.Step{}
	if l.Message != nil && l.Message.Text != nil {
		st.Message = *l.Message.Text
	}
	pl := l.PhysicalLocation
	if pl == nil || pl.ArtifactLocation == nil {
		return st, errors.New("a step has no file")
	}
	rel, err := rd.resolve(pl.ArtifactLocation)
	if err != nil {
		return st, err
	}
	r := pl.Region
	if r == nil || r.StartLine == nil || *r.StartLine < 1 {
		return st, fmt.Errorf("%s: a step has no start line", rel)
	}
	if st.Message == "" && r.Message != nil && r.Message.Text != nil {
		st.Message = *r.Message.Text
	}
	sl, sc := *r.StartLine, 1
	if r.StartColumn != nil && *r.StartColumn > 0 {
		sc = *r.StartColumn
	}
	el, ec := sl, sc
	if r.EndLine != nil && *r.EndLine >= sl {
		el = *r.EndLine
	}
	if r.EndColumn != nil && *r.EndColumn > 0 {
		ec = *r.EndColumn
	}
	if el == sl && ec < sc {
		ec = sc
	}
	st.Loc = extract.Loc{File: rel, Start: rd.files.point(rel, sl, sc, rd.colKind), End: rd.files.point(rel, el, ec, rd.colKind)}
	return st, nil
}

// resolve turns an artifact location into a root-relative slash path, or
// refuses it: other URI bases, other schemes, absolute paths outside the
// root and relative paths that climb out of it.
func (rd *runReader) resolve(al *gosarif.ArtifactLocation) (string, error) {
	uri := ""
	if al.URI != nil {
		uri = *al.URI
	}
	if uri == "" && al.Index != nil {
		if i := int(*al.Index); i >= 0 && i < len(rd.run.Artifacts) && rd.run.Artifacts[i] != nil && rd.run.Artifacts[i].Location != nil && rd.run.Artifacts[i].Location.URI != nil {
			uri = *rd.run.Artifacts[i].Location.URI
		}
	}
	if uri == "" {
		return "", errors.New("a step has no URI")
	}
	if al.URIBaseId != nil && *al.URIBaseId != "" && *al.URIBaseId != "%SRCROOT%" && *al.URIBaseId != "SRCROOT" {
		return "", fmt.Errorf("%q: unknown uriBaseId %q", uri, *al.URIBaseId)
	}
	p := uri
	if u, err := url.Parse(uri); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		if u.Scheme != "file" {
			return "", fmt.Errorf("%q: not a file URI", uri)
		}
		p = u.Path
	} else if err == nil {
		if un, err := url.PathUnescape(uri); err == nil {
			p = un
		}
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%q: NUL in path", uri)
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if path.IsAbs(p) || filepath.IsAbs(p) || hasDrive(p) {
		if rd.opt.Root == "" {
			return "", fmt.Errorf("%q: absolute path and no workspace root", uri)
		}
		root, err := filepath.Abs(rd.opt.Root)
		if err != nil {
			return "", fmt.Errorf("%q: %w", uri, err)
		}
		rel, err := filepath.Rel(root, filepath.FromSlash(p))
		if err != nil {
			return "", fmt.Errorf("%q is outside the workspace root", uri)
		}
		p = filepath.ToSlash(rel)
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return "", fmt.Errorf("%q is outside the workspace root", uri)
	}
	return p, nil
}

func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20) >= 'a' && (p[0]|0x20) <= 'z'
}
