package gate

import (
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
)

// ToolsFor describes the tools of a capability graph to gate for an agent:
// where their code is and which graph node runs them.
func ToolsFor(g *capgraph.Graph, agentID string, toolIDs []string) []Tool {
	var out []Tool
	for _, id := range toolIDs {
		ct := g.Tools[id]
		if ct == nil {
			continue
		}
		t := Tool{ID: ct.ID, Name: ct.Name, Kind: ct.Kind, Framework: ct.Framework, Path: pathOfID(ct.ID)}
		if ct.Src != nil {
			if ct.Kind == extract.ToolPrebuilt && ct.Src.Ctor != nil {
				t.Class, t.Ctor = ct.Src.Class, ct.Src.Ctor.Loc
			}
			if ct.Src.Func != nil {
				t.FuncQual, t.Path = ct.Src.Func.Qual, ct.Src.Func.Loc.File
			} else if ct.Src.Loc.File != "" {
				t.Path = ct.Src.Loc.File
			}
		}
		for _, u := range g.Uses {
			if u.Agent == agentID && u.Tool == id {
				t.Node = u.Node
			}
		}
		out = append(out, t)
	}
	return out
}

// AgentPath is the file that defines an agent of the graph.
func AgentPath(g *capgraph.Graph, agentID string) string {
	if a := g.Agents[agentID]; a != nil && a.Loc.File != "" {
		return a.Loc.File
	}
	return pathOfID(agentID)
}

// pathOfID reads the file out of an id ("path#symbol").
func pathOfID(id string) string {
	p, _, _ := strings.Cut(id, "#")
	return p
}
