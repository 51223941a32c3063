package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/policy"
)

// Version is the output contract's version.
const Version = "1"

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
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Framework    string   `json:"framework"`
	File         string   `json:"file"`
	Line         int      `json:"line"`
	Tools        []string `json:"tools"`
	Capabilities []string `json:"capabilities"`
}

// Tool is a tool in the output.
type Tool struct {
	ID        string            `json:"id"`
	Name      string            `json:"name"`
	Framework string            `json:"framework"`
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
			Line: a.Loc.Start.Line, Tools: ts, Capabilities: caps})
	}
	sort.Slice(d.Agents, func(i, j int) bool { return d.Agents[i].ID < d.Agents[j].ID })
	for _, t := range g.Tools {
		d.Tools = append(d.Tools, Tool{ID: t.ID, Name: t.Name, Framework: t.Framework, File: t.Loc.File,
			Line: t.Loc.Start.Line, Effects: t.Effects.Values(), DecidedBy: t.Effects.DecidedBy()})
	}
	sort.Slice(d.Tools, func(i, j int) bool { return d.Tools[i].ID < d.Tools[j].ID })
	return d
}

// JSON writes the document, indented, with a trailing newline.
func JSON(w io.Writer, d *Document) error {
	return writeJSON(w, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(d)
	})
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
