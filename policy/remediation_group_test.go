package policy

import (
	"strings"
	"testing"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
)

// TestRemediationGroupsByGate: an agent's remediation is one sentence per
// kind of gate, naming every tool it is for. Tools whose gate is spelled
// differently (another framework, a code snippet that names the tool as a
// key) keep sentences of their own, and a name is said once.
func TestRemediationGroupsByGate(t *testing.T) {
	loc := func(f string, line int32) extract.Loc { return extract.Loc{File: f, Start: extract.Point{Line: line}} }
	owner := &capgraph.Agent{ID: "a", Name: "a", Framework: "openai-agents", Loc: loc("a.py", 1), Src: &extract.Agent{Ctor: "Agent"}}
	g := &capgraph.Graph{Agents: map[string]*capgraph.Agent{"a": owner}}
	tool := func(id, name string, fw extract.Framework, kind extract.ToolKind) leg {
		t := &capgraph.Tool{ID: id, Name: name, Kind: kind, Loc: loc(id+".py", 2), Src: &extract.Tool{Framework: fw}}
		return leg{r: &capgraph.Reached{Tool: t, Via: []string{"a"}}}
	}
	// Negative: two tools of different gates stay two sentences.
	got := remediation(g, owner, []leg{
		tool("x/post", "post", "openai-agents", extract.ToolFunc),
		tool("x/hosted", "hosted", "", extract.ToolAgent),
	})
	if strings.Contains(got, "each of") || !strings.Contains(got, "@function_tool decorator of post ") || !strings.Contains(got, "as_tool(...) call that makes hosted") {
		t.Errorf("two gates: %q", got)
	}
	// Positive: three function tools share one gate; a tool of the same
	// name in another file is named once.
	got = remediation(g, owner, []leg{
		tool("x/post", "post", "openai-agents", extract.ToolFunc),
		tool("x/send", "send", "openai-agents", extract.ToolFunc),
		tool("y/post", "post", "openai-agents", extract.ToolFunc),
		tool("x/run", "run", "openai-agents", extract.ToolFunc),
	})
	if want := "Set needs_approval=True on the @function_tool decorator of each of post, send and run and handle"; !strings.HasPrefix(got, want) || strings.Count(got, "needs_approval") != 1 {
		t.Errorf("one gate: %q, want it to start %q", got, want)
	}
	// A gate that names the tool in code (a quoted key) is said per tool.
	crew := &capgraph.Agent{ID: "c", Name: "c", Framework: "crewai", Loc: loc("c.py", 1), Src: &extract.Agent{Ctor: "Crew"}}
	g.Agents["c"] = crew
	l1, l2 := tool("x/post", "post", "crewai", extract.ToolFunc), tool("x/send", "send", "crewai", extract.ToolFunc)
	l1.r.Via, l2.r.Via = []string{"c"}, []string{"c"}
	got = remediation(g, crew, []leg{l1, l2})
	if strings.Contains(got, "each of") || !strings.Contains(got, `tools=["post"]`) || !strings.Contains(got, `tools=["send"]`) {
		t.Errorf("quoted gate: %q", got)
	}
}
