package policy

import (
	"strings"
	"testing"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
)

// TestRemediationTypeScript: the advice for a TypeScript agent names its
// framework's own gate in its own syntax (requireApproval for Mastra,
// interrupt() from @langchain/langgraph, interruptBefore), and Python's
// advice stays Python's.
func TestRemediationTypeScript(t *testing.T) {
	loc := func(f string) extract.Loc { return extract.Loc{File: f, Start: extract.Point{Line: 3}} }
	agent := func(fw extract.Framework, ctor, file string) *capgraph.Agent {
		return &capgraph.Agent{Name: "a", Framework: fw, Loc: loc(file), Src: &extract.Agent{Ctor: ctor}}
	}
	tool := func(fw extract.Framework, kind extract.ToolKind, file string) *capgraph.Tool {
		return &capgraph.Tool{Name: "send_email", Kind: kind, Loc: loc(file), Src: &extract.Tool{Framework: fw}}
	}
	cases := []struct {
		owner *capgraph.Agent
		tool  *capgraph.Tool
		want  string
	}{
		{agent(extract.FrameworkMastra, "Agent", "src/mastra/agents/inbox.ts"), tool(extract.FrameworkMastra, extract.ToolFunc, "src/mastra/tools/mail.ts"), "requireApproval: true"},
		{agent(extract.FrameworkLangGraph, "createReactAgent", "agent.ts"), tool(extract.FrameworkLangChain, extract.ToolFunc, "agent.ts"), "interrupt(...) from @langchain/langgraph"},
		{agent(extract.FrameworkLangGraph, "StateGraph", "graph.ts"), tool(extract.FrameworkMCP, extract.ToolMCP, "graph.ts"), "interruptBefore: [\"tools\"]"},
		{agent(extract.FrameworkLangGraph, "create_react_agent", "agent.py"), tool(extract.FrameworkLangChain, extract.ToolFunc, "agent.py"), "interrupt(...) from langgraph.types"},
	}
	for _, tc := range cases {
		got := gateFor(tc.owner, tc.tool, capgraph.Use{}, nil)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s/%s in %s: %q, want it to say %q", tc.owner.Framework, tc.owner.Src.Ctor, tc.tool.Loc.File, got, tc.want)
		}
	}
}
