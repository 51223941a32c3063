package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/policy"
)

// Version is the output contract's version. 2: steps that more than one
// finding rests on are listed once, in shared_steps, and findings name
// them by {"ref": id}; dangerous-chain findings are one per (agent, target
// tool) and list their patterns. 3: a missing-approval or toxic-flow
// finding with more than one source names its sources' set in
// source_sets ("source_set": id) instead of listing them.
const Version = "3"

// GraphVersion is the version of the --graph document.
const GraphVersion = "1"

// Document is the JSON output contract.
type Document struct {
	Version  string            `json:"version"`
	Agents   []Agent           `json:"agents"`
	Tools    []Tool            `json:"tools"`
	Findings []*policy.Finding `json:"findings"`
	// Suppressed are findings an inline comment or the config suppresses.
	Suppressed []*policy.Finding `json:"suppressed,omitempty"`
	// Notices are input the analysis could not read in full (a skipped
	// file, a config that does not parse): "no findings" then only speaks
	// for what was read.
	Notices []Notice `json:"notices"`

	graph *capgraph.Graph
}

// Notice is one file the analysis could not read in full. Kind is
// too-large, binary, unreadable, extraction-failed or parse-error.
type Notice struct {
	File    string `json:"file"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
}

func (n Notice) where() string {
	if n.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", n.File, n.Line, n.Column)
	}
	return n.File
}

// Agent is an agent in the output.
type Agent struct {
	ID           string            `json:"id"`
	Name         string            `json:"name"`
	Framework    extract.Framework `json:"framework"`
	File         string            `json:"file"`
	Line         int               `json:"line"`
	Tools        []string          `json:"tools"`
	Capabilities []string          `json:"capabilities"`
}

// Tool is a tool in the output.
type Tool struct {
	ID        string            `json:"id"`
	Name      string            `json:"name"`
	Framework extract.Framework `json:"framework"`
	File      string            `json:"file"`
	Line      int               `json:"line"`
	Effects   map[string]bool   `json:"effects"`
	DecidedBy map[string]string `json:"decided_by"`
}

// NewDocument assembles the output document.
func NewDocument(g *capgraph.Graph, findings []*policy.Finding) *Document {
	d := &Document{Version: Version, Agents: []Agent{}, Tools: []Tool{}, Findings: findings, Notices: []Notice{}, graph: g}
	if d.Findings == nil {
		d.Findings = []*policy.Finding{}
	}
	uses := map[string][]string{}
	for _, u := range g.Uses {
		uses[u.Agent] = append(uses[u.Agent], u.Tool)
	}
	for _, a := range g.Agents {
		caps := []string{}
		for _, c := range g.Capabilities(a.ID) {
			caps = append(caps, string(c))
		}
		ts := uses[a.ID]
		if ts == nil {
			ts = []string{}
		}
		sort.Strings(ts)
		d.Agents = append(d.Agents, Agent{ID: a.ID, Name: a.Name, Framework: a.Framework, File: a.Loc.File,
			Line: int(a.Loc.Start.Line), Tools: ts, Capabilities: caps})
	}
	sort.Slice(d.Agents, func(i, j int) bool { return d.Agents[i].ID < d.Agents[j].ID })
	for _, t := range g.Tools {
		d.Tools = append(d.Tools, Tool{ID: t.ID, Name: t.Name, Framework: t.Framework, File: t.Loc.File,
			Line: int(t.Loc.Start.Line), Effects: t.Effects.Values(), DecidedBy: t.Effects.DecidedBy()})
	}
	sort.Slice(d.Tools, func(i, j int) bool { return d.Tools[i].ID < d.Tools[j].ID })
	return d
}

// JSON writes the document, indented, with a trailing newline. It is
// written a finding at a time, byte for byte what encoding the whole
// Document would give: a merged finding of a large handoff chain lists
// every source's steps, and the whole document at once cost its size
// three times over in memory (the encoding, the indented copy, the
// terminal-safe copy).
func JSON(w io.Writer, d *Document) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// value writes v indented as a member at depth one or two.
	value := func(v any, prefix string) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := bw.Write(termsafe.JSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))))
		return err
	}
	steps := stepCache{enc: map[stepKey][]byte{}}
	sets := sourceSetsOf(d.Findings, d.Suppressed)
	shared := sharedSteps(sets.order, d.Findings, d.Suppressed)
	member := func(name string, v any) error {
		bw.WriteString(",\n  \"" + name + "\": ")
		return value(v, "  ")
	}
	findings := func(name string, fs []*policy.Finding) error {
		bw.WriteString(",\n  \"" + name + "\": ")
		if len(fs) == 0 {
			return value(fs, "  ") // null or []
		}
		bw.WriteString("[")
		for i, f := range fs {
			if i > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n    ")
			if err := steps.finding(bw, f, sets.id[f.Set], value); err != nil {
				return err
			}
		}
		_, err := bw.WriteString("\n  ]")
		return err
	}
	bw.WriteString("{\n  \"version\": ")
	if err := value(d.Version, "  "); err != nil {
		return err
	}
	if err := member("agents", d.Agents); err != nil {
		return err
	}
	if err := member("tools", d.Tools); err != nil {
		return err
	}
	bw.WriteString(",\n  \"shared_steps\": {")
	for i, st := range shared {
		if i > 0 {
			bw.WriteString(",")
		}
		id := stepRef(i)
		bw.WriteString("\n    \"" + id + "\": ")
		if err := value(st, "    "); err != nil {
			return err
		}
		// every finding names it from now on
		ref, err := json.MarshalIndent(struct {
			Ref string `json:"ref"`
		}{id}, "        ", "  ")
		if err != nil {
			return err
		}
		steps.enc[keyOf(st)] = ref
	}
	if len(shared) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("}")
	bw.WriteString(",\n  \"source_sets\": {")
	for i, set := range sets.order {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    \"" + sets.id[set] + "\": {\n      \"tools\": ")
		if err := value(set.Tools, "      "); err != nil {
			return err
		}
		bw.WriteString(",\n      \"steps\": ")
		if err := steps.list(bw, set.Steps); err != nil {
			return err
		}
		bw.WriteString("\n    }")
	}
	if len(sets.order) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("}")
	if err := findings("findings", d.Findings); err != nil {
		return err
	}
	if len(d.Suppressed) > 0 {
		if err := findings("suppressed", d.Suppressed); err != nil {
			return err
		}
	}
	if err := member("notices", d.Notices); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// sharedSteps lists, in order of first appearance, the steps that more
// than one finding rests on: a source's steps, a sink's, an agent's
// declaration, each shared by every finding it supports (a handoff chain's
// findings list the same steps hundreds of times). The document lists
// each once and the findings name it, so its size grows with the facts,
// not with the findings that share them. The keys carry no Loc: it is not
// encoded.
func sharedSteps(sets []*policy.SourceSet, lists ...[]*policy.Finding) []policy.Step {
	type seen struct{ first, n int32 }
	count := map[stepKey]seen{}
	var order []policy.Step
	add := func(steps []policy.Step) {
		for _, st := range steps {
			k := keyOf(st)
			c, ok := count[k]
			if !ok {
				c.first = int32(len(count))
			}
			c.n++
			count[k] = c
			if c.n == 2 {
				st.Loc = extract.Loc{} // not encoded
				order = append(order, st)
			}
		}
	}
	// The sets come first in the document, then the findings.
	for _, set := range sets {
		add(set.Steps)
	}
	for _, fs := range lists {
		for _, f := range fs {
			add(f.Steps)
		}
	}
	// ids follow the first sighting: reading the findings in order meets
	// s1, s2, ...
	sort.Slice(order, func(a, b int) bool { return count[keyOf(order[a])].first < count[keyOf(order[b])].first })
	return order
}

// stepKey is what the document writes of a step: a step is shared by
// what it says, not by its range. It is half a Step's size, and a large
// chain's findings hold about a million steps.
type stepKey struct {
	file      string
	line, col int32
	msg       string
}

func keyOf(s policy.Step) stepKey {
	return stepKey{s.File, int32(s.Line), int32(s.Column), s.Message}
}

// sourceSets names each source set the findings rest on, u1, u2, … in
// order of first use: each is written once, however many findings name it.
type sourceSetIDs struct {
	id    map[*policy.SourceSet]string
	order []*policy.SourceSet
}

func sourceSetsOf(lists ...[]*policy.Finding) sourceSetIDs {
	s := sourceSetIDs{id: map[*policy.SourceSet]string{}}
	for _, fs := range lists {
		for _, f := range fs {
			if f.Set == nil {
				continue
			}
			if _, ok := s.id[f.Set]; !ok {
				s.id[f.Set] = fmt.Sprintf("u%d", len(s.order)+1)
				s.order = append(s.order, f.Set)
			}
		}
	}
	return s
}

// stepRef is the id of the i-th shared step.
func stepRef(i int) string { return fmt.Sprintf("s%d", i+1) }

// stepCache writes a finding's steps from their encodings, each made
// once: the steps of one source are shared by every finding it supports
// (a large handoff chain's findings list the same steps hundreds of times).
type stepCache struct {
	enc map[stepKey][]byte
	buf bytes.Buffer
}

// stepsAt is where a finding's steps member stands in its encoding
// without them: a field of a finding, which is an element of a member of
// the document.
const stepsAt = "\n      \"steps\": null"

// finding writes f as value would, its steps from the cache, naming its
// source set by set.
func (sc *stepCache) finding(w *bufio.Writer, f *policy.Finding, set string, value func(any, string) error) error {
	g := *f
	g.SourceSet = set
	if len(f.Steps) == 0 {
		return value(&g, "    ")
	}
	g.Steps = nil
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	if err := enc.Encode(&g); err != nil {
		return err
	}
	b := termsafe.JSON(bytes.TrimSuffix(head.Bytes(), []byte("\n")))
	at := bytes.Index(b, []byte(stepsAt))
	if at < 0 {
		return fmt.Errorf("report: no steps member in the encoding of finding %s", f.ID)
	}
	w.Write(b[:at])
	w.WriteString("\n      \"steps\": ")
	if err := sc.list(w, f.Steps); err != nil {
		return err
	}
	_, err := w.Write(b[at+len(stepsAt):])
	return err
}

// list writes steps as the member of an object at depth two: a shared
// step as its ref, any other inline.
func (sc *stepCache) list(w *bufio.Writer, steps []policy.Step) error {
	w.WriteString("[")
	for i, st := range steps {
		if i > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n        ")
		key := st
		key.Loc = extract.Loc{}    // not encoded
		e, ok := sc.enc[keyOf(st)] // a shared step: its ref
		if !ok {
			// a step of this finding alone
			sc.buf.Reset()
			se := json.NewEncoder(&sc.buf)
			se.SetEscapeHTML(false)
			se.SetIndent("        ", "  ")
			if err := se.Encode(key); err != nil {
				return err
			}
			e = termsafe.JSON(bytes.TrimSuffix(sc.buf.Bytes(), []byte("\n")))
		}
		w.Write(e)
	}
	if len(steps) == 0 {
		_, err := w.WriteString("]")
		return err
	}
	_, err := w.WriteString("\n      ]")
	return err
}

// writeJSON writes what encode produces with the runes a terminal would
// act on (DEL, C1, bidi controls from scanned names) escaped: JSON output
// is often read on one, and the escape decodes to the same value.
func writeJSON(w io.Writer, encode func(io.Writer) error) error {
	var b bytes.Buffer
	if err := encode(&b); err != nil {
		return err
	}
	_, err := w.Write(termsafe.JSON(b.Bytes()))
	return err
}

// all returns the reported and the suppressed findings in output order.
func (d *Document) all() []*policy.Finding {
	out := append(append([]*policy.Finding(nil), d.Findings...), d.Suppressed...)
	policy.Sort(out)
	return out
}
