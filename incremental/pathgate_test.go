package incremental

import (
	"strings"
	"testing"
)

const pathGraph = `
import subprocess
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

class Chat:
    pass

def model(state):
    return {"messages": [Chat().bind_tools([]).invoke(state["messages"])]}

def review(state):
    interrupt({"review": state["plan"]})
    return {}

def plan_a(state):
    return {}

def plan_b(state):
    return {}

def run(state):
    subprocess.run(state["plan"], shell=True)
    return {}

b = StateGraph(dict)
b.add_node("model", model)
b.add_node("review", review)
b.add_node("plan_a", plan_a)
b.add_node("plan_b", plan_b)
b.add_node("run", run)
b.add_edge(START, "model")
`

// TestPathGates: a graph node is gated when every path from the model to
// it passes some node that asks a human, an interrupting body or an
// interrupt_before/after node; one open path leaves it ungated.
func TestPathGates(t *testing.T) {
	for _, tc := range []struct {
		name, edges string
		gated       bool
	}{
		{"no gate on the path", `
b.add_edge("model", "plan_a")
b.add_edge("plan_a", "run")
g = b.compile()
`, false},
		{"one of two branches reviewed", `
b.add_conditional_edges("model", lambda s: s["x"], ["review", "plan_b"])
b.add_edge("review", "run")
b.add_edge("plan_b", "run")
g = b.compile()
`, false},
		{"interrupt body and interrupt_before together", `
b.add_conditional_edges("model", lambda s: s["x"], {"a": "review", "b": "plan_b"})
b.add_edge("review", "run")
b.add_edge("plan_b", "run")
g = b.compile(interrupt_before=["plan_b"])
`, true},
		{"interrupt_after on both branches", `
b.add_conditional_edges("model", lambda s: s["x"], {"a": "plan_a", "b": "plan_b"})
b.add_edge("plan_a", "run")
b.add_edge("plan_b", "run")
g = b.compile(interrupt_after=["plan_a", "plan_b"])
`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := load(t, writeTree(t, map[string]string{"g.py": pathGraph + tc.edges}))
			g := s.Analyze().Graph
			found := false
			for _, u := range g.Uses {
				if strings.HasSuffix(u.Tool, "#g.run") {
					found = true
					if got := len(u.Gates) > 0; got != tc.gated {
						t.Errorf("run gated = %v, want %v (gates %+v)", got, tc.gated, u.Gates)
					}
				}
			}
			if !found {
				var ids []string
				for _, u := range g.Uses {
					ids = append(ids, u.Tool)
				}
				t.Fatalf("no use of the run node; uses %v", ids)
			}
		})
	}
}
