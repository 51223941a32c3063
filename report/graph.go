package report

import (
	"encoding/json"
	"io"
	"sort"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
)

// GraphDoc is graph.json: the capability graph's nodes and edges, and for
// each finding the nodes on its path.
type GraphDoc struct {
	Version  string         `json:"version"`
	Nodes    []GraphNode    `json:"nodes"`
	Edges    []GraphEdge    `json:"edges"`
	Findings []GraphFinding `json:"findings"`
}

// GraphNode is an agent, tool, approval or MCP server.
type GraphNode struct {
	ID        string            `json:"id"`
	Kind      string            `json:"kind"`
	Name      string            `json:"name,omitempty"`
	Framework extract.Framework `json:"framework,omitempty"`
	File      string            `json:"file,omitempty"`
	Line      int               `json:"line,omitempty"`
	// Agents: what they reach. Tools: their own.
	Capabilities []string `json:"capabilities,omitempty"`
	// Tools only.
	ToolKind  string            `json:"tool_kind,omitempty"`
	Server    string            `json:"server,omitempty"`
	Effects   map[string]bool   `json:"effects,omitempty"`
	DecidedBy map[string]string `json:"decided_by,omitempty"`
	// Approvals only.
	ApprovalKind string `json:"approval_kind,omitempty"`
	Detail       string `json:"detail,omitempty"`
}

// GraphEdge is one relation; see capgraph's edge kinds.
type GraphEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
}

// GraphFinding ties a finding to the nodes on its path.
type GraphFinding struct {
	ID         string   `json:"id"`
	Rule       string   `json:"rule"`
	Severity   string   `json:"severity"`
	Agent      string   `json:"agent,omitempty"`
	Agents     []string `json:"agents"`
	Tools      []string `json:"tools"`
	Suppressed bool     `json:"suppressed,omitempty"`
}

// NewGraphDoc builds graph.json from a document's graph and findings.
func NewGraphDoc(d *Document) *GraphDoc {
	gd := &GraphDoc{Version: GraphVersion, Nodes: []GraphNode{}, Edges: []GraphEdge{}, Findings: []GraphFinding{}}
	g := d.graph
	if g == nil {
		return gd
	}
	agents := map[string]Agent{}
	for _, a := range d.Agents {
		agents[a.ID] = a
	}
	for _, n := range g.Nodes() {
		gn := GraphNode{ID: n.ID, Kind: string(n.Kind)}
		switch n.Kind {
		case capgraph.NodeAgent:
			a := g.Agents[n.ID]
			gn.Name, gn.Framework, gn.File, gn.Line = a.Name, a.Framework, a.Loc.File, int(a.Loc.Start.Line)
			gn.Capabilities = agents[n.ID].Capabilities
		case capgraph.NodeTool:
			t := g.Tools[n.ID]
			gn.Name, gn.Framework, gn.File, gn.Line = t.Name, t.Framework, t.Loc.File, int(t.Loc.Start.Line)
			gn.ToolKind, gn.Server = string(t.Kind), t.Server
			gn.Effects, gn.DecidedBy = t.Effects.Values(), t.Effects.DecidedBy()
			for _, c := range t.Effects.Caps() {
				gn.Capabilities = append(gn.Capabilities, string(c))
			}
		case capgraph.NodeApproval:
			if ap := g.Approval(n.ID); ap != nil {
				gn.ApprovalKind, gn.File, gn.Line, gn.Detail = ap.Kind, ap.Loc.File, int(ap.Loc.Start.Line), ap.Detail
			}
		case capgraph.NodeServer:
			if s := g.Servers[n.ID]; s != nil {
				gn.Name, gn.File, gn.Line = s.Name, s.Loc.File, int(s.Loc.Start.Line)
			}
		}
		gd.Nodes = append(gd.Nodes, gn)
	}
	for _, e := range g.Edges() {
		for _, k := range e.Kinds {
			gd.Edges = append(gd.Edges, GraphEdge{From: e.From, To: e.To, Kind: string(k)})
		}
	}
	rs := newReaches(g)
	for _, f := range d.all() {
		p := rs.pathOf(f)
		gd.Findings = append(gd.Findings, GraphFinding{ID: f.ID, Rule: f.Rule, Severity: string(f.Severity), Agent: f.AgentID,
			Agents: p.agentList(), Tools: p.toolList(), Suppressed: f.Suppression != nil})
	}
	return gd
}

// Graph writes graph.json.
func Graph(w io.Writer, d *Document) error {
	return writeJSON(w, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(NewGraphDoc(d))
	})
}

// path is the part of the graph a finding is about: the agents on the
// way (the finding's agent and those it reaches the tools through) and
// the tools its chain names.
type path struct {
	agents map[string]bool
	tools  map[string]bool
}

// reaches memoises Reach per agent: findings of one agent share it.
type reaches struct {
	g    *capgraph.Graph
	memo map[string][]capgraph.Reached
}

func newReaches(g *capgraph.Graph) *reaches {
	return &reaches{g: g, memo: map[string][]capgraph.Reached{}}
}

func (r *reaches) of(agent string) []capgraph.Reached {
	if x, ok := r.memo[agent]; ok {
		return x
	}
	x := r.g.Reach(agent)
	r.memo[agent] = x
	return x
}

func (r *reaches) pathOf(f *policy.Finding) path {
	g := r.g
	p := path{agents: map[string]bool{}, tools: map[string]bool{}}
	if f.AgentID == "" || g.Agents[f.AgentID] == nil {
		return p
	}
	p.agents[f.AgentID] = true
	want := map[string]bool{}
	for _, n := range append(append([]string{f.Source, f.Sink}, f.Chain...), f.SinkIDs...) {
		want[n] = true
	}
	if f.Legs != nil {
		for _, n := range append(append(append([]string{}, f.Legs.Untrusted...), f.Legs.Private...), f.Legs.Action...) {
			want[n] = true
		}
	}
	for _, r := range r.of(f.AgentID) {
		if want[r.Tool.Name] || want[r.Tool.ID] {
			p.tools[r.Tool.ID] = true
			for _, a := range r.Via {
				p.agents[a] = true
			}
		}
	}
	return p
}

func (p path) agentList() []string { return sortedKeys(p.agents) }
func (p path) toolList() []string  { return sortedKeys(p.tools) }

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
