package capgraph

import (
	"sort"
	"sync"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// Chain support: what the dangerous-chain check needs beyond Reach, all
// bounded. Agent cycles are strongly connected components (Tarjan, linear)
// rather than enumerated cycles, whose number is exponential in dense
// graphs; agent-to-agent flow is a breadth-first search cut at a few hops.

// analysis holds results computed once per graph on first use (the graph
// is shared by concurrent readers).
type analysis struct {
	centralityOnce sync.Once
	centralityMu   sync.Mutex
	centrality     map[string]float64
	component      []int // node -> weakly connected component
	componentDone  map[int]bool

	agentsOnce sync.Once
	out, flow  map[string][]string // declared agent edges; data-flow moves
	scc        map[string]int      // agent -> index into cycles
	cycles     [][]string
}

func (gr *Graph) cache() *analysis {
	gr.cacheOnce.Do(func() { gr.an = &analysis{} })
	return gr.an
}

// Centrality returns a node's betweenness centrality over the whole graph
// (Brandes, as gonum's network.Betweenness; betweenness.go), normalised for a directed graph by
// (n-1)(n-2) so that it lies in [0, 1]. Shortest paths never leave a
// weakly connected component, so each component is computed on its own,
// when one of its nodes is first asked about: exact, and quadratic in the
// component rather than in the whole workspace.
func (gr *Graph) Centrality(id string) float64 {
	nid, ok := gr.ids[id]
	if !ok {
		return 0
	}
	an := gr.cache()
	an.centralityOnce.Do(func() {
		an.centrality = map[string]float64{}
		an.component = components(gr)
		an.componentDone = map[int]bool{}
	})
	an.centralityMu.Lock()
	defer an.centralityMu.Unlock()
	c := an.component[nid]
	if !an.componentDone[c] {
		an.componentDone[c] = true
		n := float64(len(gr.names))
		if n >= 3 {
			norm := (n - 1) * (n - 2)
			var members []int64
			for id, cc := range an.component {
				if cc == c {
					members = append(members, int64(id))
				}
			}
			for x, v := range betweenness(gr, members) {
				an.centrality[gr.names[x]] = v / norm
			}
		}
	}
	return an.centrality[id]
}

// components labels each node with its weakly connected component.
func components(gr *Graph) []int {
	comp := make([]int, len(gr.names))
	for i := range comp {
		comp[i] = -1
	}
	next := 0
	for start := range comp {
		if comp[start] >= 0 {
			continue
		}
		comp[start] = next
		stack := []int64{int64(start)}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, it := range []graph.Nodes{gr.g.From(v), gr.g.To(v)} {
				for it.Next() {
					w := it.Node().ID()
					if comp[w] < 0 {
						comp[w] = next
						stack = append(stack, w)
					}
				}
			}
		}
		next++
	}
	return comp
}

func (gr *Graph) agentEdges() *analysis {
	an := gr.cache()
	an.agentsOnce.Do(func() {
		an.out, an.flow, an.scc = map[string][]string{}, map[string][]string{}, map[string]int{}
		add := func(m map[string][]string, from, to string) {
			for _, x := range m[from] {
				if x == to {
					return
				}
			}
			m[from] = append(m[from], to)
		}
		link := func(from, to string, returns bool) {
			if from == to {
				return
			}
			add(an.out, from, to)
			add(an.flow, from, to)
			if returns {
				add(an.flow, to, from) // a sub-agent's result comes back
			}
		}
		for _, l := range gr.Links {
			link(l.From, l.To, l.Kind != EdgeHandoff)
		}
		for _, u := range gr.Uses {
			if t := gr.Tools[u.Tool]; t != nil && t.Agent != "" && gr.Agents[t.Agent] != nil {
				link(u.Agent, t.Agent, true)
			}
		}
		for _, m := range []map[string][]string{an.out, an.flow} {
			for k := range m {
				sort.Strings(m[k])
			}
		}
		// Cycles among agents: strongly connected components of the
		// declared edges with at least two agents.
		g := simple.NewDirectedGraph()
		ids := map[string]int64{}
		var names []string
		node := func(a string) int64 {
			if n, ok := ids[a]; ok {
				return n
			}
			n := int64(len(names))
			ids[a] = n
			names = append(names, a)
			g.AddNode(simple.Node(n))
			return n
		}
		var froms []string
		for f := range an.out {
			froms = append(froms, f)
		}
		sort.Strings(froms)
		for _, f := range froms {
			for _, t := range an.out[f] {
				fn, tn := node(f), node(t)
				if !g.HasEdgeFromTo(fn, tn) {
					g.SetEdge(simple.Edge{F: simple.Node(fn), T: simple.Node(tn)})
				}
			}
		}
		for _, comp := range topo.TarjanSCC(g) {
			if len(comp) < 2 {
				continue
			}
			var c []string
			for _, n := range comp {
				c = append(c, names[n.ID()])
			}
			sort.Strings(c)
			an.cycles = append(an.cycles, c)
		}
		sort.Slice(an.cycles, func(i, j int) bool { return an.cycles[i][0] < an.cycles[j][0] })
		for i, c := range an.cycles {
			for _, a := range c {
				an.scc[a] = i
			}
		}
	})
	return an
}

// AgentCycles returns the groups of agents that can hand work around in a
// cycle (strongly connected components of two or more agents), sorted.
func (gr *Graph) AgentCycles() [][]string { return gr.agentEdges().cycles }

// CycleOf returns the index of an agent's cycle in AgentCycles, or -1.
func (gr *Graph) CycleOf(agent string) int {
	if i, ok := gr.agentEdges().scc[agent]; ok {
		return i
	}
	return -1
}

// FlowPaths returns the agents that data held by `from` can reach in at
// most maxHops moves (a handoff or sub-agent call forward, a sub-agent's
// result back to its caller), each with a shortest path starting at from.
// The search visits each agent once: linear in the agent edges.
func (gr *Graph) FlowPaths(from string, maxHops int) map[string][]string {
	an := gr.agentEdges()
	paths := map[string][]string{from: {from}}
	frontier := []string{from}
	for hop := 0; hop < maxHops && len(frontier) > 0; hop++ {
		var next []string
		for _, a := range frontier {
			for _, b := range an.flow[a] {
				if _, seen := paths[b]; seen {
					continue
				}
				p := make([]string, len(paths[a])+1)
				copy(p, paths[a])
				p[len(p)-1] = b
				paths[b] = p
				next = append(next, b)
			}
		}
		frontier = next
	}
	delete(paths, from)
	return paths
}

// CyclePath returns a shortest path of declared agent edges from one agent
// to another inside their cycle, for showing how work gets from one to the
// other (nil when there is none).
func (gr *Graph) CyclePath(from, to string) []string {
	an := gr.agentEdges()
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		if a == to {
			var p []string
			for x := to; x != ""; x = prev[x] {
				p = append([]string{x}, p...)
			}
			return p
		}
		for _, b := range an.out[a] {
			if _, seen := prev[b]; !seen {
				prev[b] = a
				queue = append(queue, b)
			}
		}
	}
	return nil
}
