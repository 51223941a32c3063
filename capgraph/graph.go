// Package capgraph is the Agent Capability Graph: agents, tools, approvals
// and MCP servers as nodes of a gonum directed graph, with the edges that
// give an agent its reach (uses, handoffs, sub-agents, agents-as-tools).
// It answers what each agent can reach, by which path, and whether a human
// approval stands on that path.
package capgraph

import (
	"sort"
	"sync"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// EdgeKind names a relation between nodes.
type EdgeKind string

const (
	EdgeUses     EdgeKind = "uses"     // agent → tool
	EdgeHandoff  EdgeKind = "handoff"  // agent → agent: control passes over
	EdgeSubAgent EdgeKind = "subagent" // agent → agent: runs it as a step or tool and keeps control
	EdgeAsTool   EdgeKind = "as_tool"  // tool → agent: the tool runs that agent
	EdgeGates    EdgeKind = "gates"    // approval → tool or agent
	EdgeServes   EdgeKind = "serves"   // MCP server → tool
)

// NodeKind names what a node is.
type NodeKind string

const (
	NodeAgent    NodeKind = "agent"
	NodeTool     NodeKind = "tool"
	NodeApproval NodeKind = "approval"
	NodeServer   NodeKind = "server"
)

// Tool is a tool node.
type Tool struct {
	ID        string
	Name      string
	Framework extract.Framework
	Kind      extract.ToolKind
	Loc       extract.Loc
	Effects   *effects.Effects
	Approvals []*extract.Approval // gates on every use of the tool
	Agent     string              // for agent-as-tool: the agent it runs
	Server    string              // for MCP tools: their server node id
	Src       *extract.Tool
}

// Gated reports whether a tool-level approval covers every call.
func (t *Tool) Gated() (*extract.Approval, bool) {
	for _, a := range t.Approvals {
		if a.All {
			return a, true
		}
	}
	return nil, false
}

// Agent is an agent node.
type Agent struct {
	ID        string
	Name      string
	Framework extract.Framework
	Loc       extract.Loc
	Src       *extract.Agent
}

// Use is an agent's direct use of a tool.
type Use struct {
	Agent string
	Tool  string
	Node  string              // graph node that runs it, when known
	Gates []*extract.Approval // the agent's approvals that cover this use
	Loc   extract.Loc         // where the agent lists the tool
	// Grants are the config entries that let the agent use the tool
	// without asking (Claude Code allow rules, a permission mode).
	Grants []Grant
	// Unsure says why whether a person approves this use is not known (a
	// Claude Code hook acg cannot read): findings on it need review.
	Unsure string
}

// Grant is a config entry that lets an agent use a tool without asking.
type Grant struct {
	Loc extract.Loc
	Why string
	// Fix holds the edits that turn the grant into an approval (move a
	// Claude Code allow rule to ask), for quick fixes.
	Fix []extract.TextEdit
	// Partial: the grant lets some calls run without asking, not every
	// one (a hook that can answer "allow"), so it is no unrestricted
	// permission.
	Partial bool
	// Advice is the change, in the client's own terms, that brings the
	// confirmation back (`"trust": false`, a stricter approval_policy).
	Advice string
}

// Link is an agent-to-agent edge.
type Link struct {
	From, To string
	Kind     EdgeKind
	Loc      extract.Loc
}

// Server is an MCP server node.
type Server struct {
	ID   string
	Name string
	Loc  extract.Loc
	// Via says how a client's server entry was resolved: "code:<server
	// id>" (a server in the tree), "catalog:<id>", or "unknown" (fail
	// closed); "" for a server defined in code.
	Via string
	// Tools are the tool nodes the entry resolves to (for hover).
	Tools []string
}

// Node is any node, for output.
type Node struct {
	ID   string
	Kind NodeKind
}

// Graph is the capability graph of one snapshot.
type Graph struct {
	Agents  map[string]*Agent
	Tools   map[string]*Tool
	Servers map[string]*Server
	Uses    []Use
	Links   []Link

	g     *simple.DirectedGraph
	ids   map[string]int64
	names []string
	kinds []NodeKind
	edges map[[2]int64][]EdgeKind
	// approval nodes, by the approval they stand for
	approvals map[*extract.Approval]string
	// usesOf indexes Uses by agent.
	usesOf map[string][]Use

	cacheOnce sync.Once
	an        *analysis // chains.go

	// reach memoises Reach per agent: every check, the document's
	// capabilities and hover ask for the same reaches, and a handoff
	// chain's walks were a fifth of its analysis.
	reachMu sync.Mutex
	reach   map[string][]Reached
	next    map[string][]string // agentsAfter
}

// Build assembles the graph. Ids must be unique across kinds; duplicate
// uses and links are merged (gonum's simple graph allows one edge a pair).
func Build(agents []*Agent, tools []*Tool, servers []*Server, uses []Use, links []Link) *Graph {
	gr := &Graph{Agents: map[string]*Agent{}, Tools: map[string]*Tool{}, Servers: map[string]*Server{},
		g: simple.NewDirectedGraph(), ids: map[string]int64{}, edges: map[[2]int64][]EdgeKind{},
		approvals: map[*extract.Approval]string{}}
	for _, a := range agents {
		gr.Agents[a.ID] = a
		gr.node(a.ID, NodeAgent)
	}
	for _, s := range servers {
		gr.Servers[s.ID] = s
		gr.node(s.ID, NodeServer)
	}
	for _, t := range tools {
		gr.Tools[t.ID] = t
		gr.node(t.ID, NodeTool)
		if t.Agent != "" {
			gr.edge(t.ID, t.Agent, EdgeAsTool)
		}
		if t.Server != "" {
			gr.edge(t.Server, t.ID, EdgeServes)
		}
		for _, ap := range t.Approvals {
			if ap.All {
				gr.edge(gr.approval(ap), t.ID, EdgeGates)
			}
		}
	}
	for _, s := range servers {
		for _, t := range s.Tools {
			if gr.Tools[t] != nil {
				gr.edge(s.ID, t, EdgeServes)
			}
		}
	}
	seenUse := map[[2]string]int{}
	for _, u := range uses {
		if gr.Agents[u.Agent] == nil || gr.Tools[u.Tool] == nil {
			continue
		}
		key := [2]string{u.Agent, u.Tool}
		if i, ok := seenUse[key]; ok {
			// Listed twice (two graph nodes): gated only if both are.
			if len(u.Gates) == 0 {
				gr.Uses[i].Gates = nil
			}
			continue
		}
		seenUse[key] = len(gr.Uses)
		gr.Uses = append(gr.Uses, u)
		gr.edge(u.Agent, u.Tool, EdgeUses)
		for _, ap := range u.Gates {
			gr.edge(gr.approval(ap), u.Agent, EdgeGates)
		}
	}
	for _, l := range links {
		if gr.Agents[l.From] == nil || gr.Agents[l.To] == nil || l.From == l.To {
			continue
		}
		gr.Links = append(gr.Links, l)
		gr.edge(l.From, l.To, l.Kind)
	}
	sort.Slice(gr.Uses, func(i, j int) bool {
		if gr.Uses[i].Agent != gr.Uses[j].Agent {
			return gr.Uses[i].Agent < gr.Uses[j].Agent
		}
		return gr.Uses[i].Tool < gr.Uses[j].Tool
	})
	gr.usesOf = map[string][]Use{}
	for _, u := range gr.Uses {
		gr.usesOf[u.Agent] = append(gr.usesOf[u.Agent], u)
	}
	return gr
}

func (gr *Graph) node(id string, k NodeKind) int64 {
	if n, ok := gr.ids[id]; ok {
		return n
	}
	n := int64(len(gr.names))
	gr.ids[id] = n
	gr.names = append(gr.names, id)
	gr.kinds = append(gr.kinds, k)
	gr.g.AddNode(simple.Node(n))
	return n
}

func (gr *Graph) approval(ap *extract.Approval) string {
	if id, ok := gr.approvals[ap]; ok {
		return id
	}
	id := "approval:" + ap.Kind + "@" + ap.Loc.File + ":" + itoa(int(ap.Loc.Start.Line)) + ":" + itoa(int(ap.Loc.Start.Col))
	gr.approvals[ap] = id
	gr.node(id, NodeApproval)
	return id
}

func (gr *Graph) edge(from, to string, k EdgeKind) {
	f, t := gr.ids[from], gr.ids[to]
	if f == t {
		return // gonum's simple graph rejects self edges
	}
	key := [2]int64{f, t}
	for _, x := range gr.edges[key] {
		if x == k {
			return
		}
	}
	gr.edges[key] = append(gr.edges[key], k)
	if !gr.g.HasEdgeFromTo(f, t) {
		gr.g.SetEdge(simple.Edge{F: simple.Node(f), T: simple.Node(t)})
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// Approval returns the approval an approval node stands for, or nil.
func (gr *Graph) Approval(id string) *extract.Approval {
	for ap, x := range gr.approvals {
		if x == id {
			return ap
		}
	}
	return nil
}

// Directed exposes the gonum graph for graph algorithms (centrality,
// cycles); NodeID and NodeName map between ids.
func (gr *Graph) Directed() graph.Directed { return gr.g }

// NodeID returns the gonum id of a node.
func (gr *Graph) NodeID(id string) (int64, bool) { n, ok := gr.ids[id]; return n, ok }

// NodeName returns the node id string of a gonum id.
func (gr *Graph) NodeName(n int64) string { return gr.names[n] }

// NodeKindOf returns the kind of a gonum node.
func (gr *Graph) NodeKindOf(n int64) NodeKind { return gr.kinds[n] }

// EdgeKinds returns the kinds of the edge between two nodes.
func (gr *Graph) EdgeKinds(from, to string) []EdgeKind {
	return gr.edges[[2]int64{gr.ids[from], gr.ids[to]}]
}

// Nodes returns every node in a stable order.
func (gr *Graph) Nodes() []Node {
	out := make([]Node, len(gr.names))
	for i, n := range gr.names {
		out[i] = Node{ID: n, Kind: gr.kinds[i]}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Edge is an edge for output.
type Edge struct {
	From, To string
	Kinds    []EdgeKind
}

// Edges returns every edge in a stable order.
func (gr *Graph) Edges() []Edge {
	out := make([]Edge, 0, len(gr.edges))
	for k, v := range gr.edges {
		ks := append([]EdgeKind(nil), v...)
		sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
		out = append(out, Edge{From: gr.names[k[0]], To: gr.names[k[1]], Kinds: ks})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].From != out[j].From {
			return out[i].From < out[j].From
		}
		return out[i].To < out[j].To
	})
	return out
}

// ClientTitle is how the agent of a client config (its framework is the
// client: vscode, cursor, claude-desktop, claude-code) is called in prose;
// other frameworks are returned as they are.
func ClientTitle(framework extract.Framework) string {
	return extract.ClientInfoOf(string(framework)).Title
}
