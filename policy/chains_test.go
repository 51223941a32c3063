package policy

import (
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

func TestPatternsFile(t *testing.T) {
	var pf patternsFile
	db := DefaultPatterns()
	if err := yaml.Unmarshal(patternsYAML, &pf); err != nil {
		t.Fatal(err)
	}
	if len(pf.Patterns) != 124 {
		t.Fatalf("patterns.yaml has %d rows, want the 124 of scanners.md", len(pf.Patterns))
	}
	for i, id := range []string{"C1", "C2", "C3", "C4", "C5"} {
		if pf.Patterns[i].ID != id || pf.Patterns[i].Category != "claude_code" {
			t.Errorf("row %d is %s, want %s first", i, pf.Patterns[i].ID, id)
		}
	}
	seen := map[[2]string]bool{}
	for _, p := range pf.Patterns {
		if _, ok := ParseSeverity(p.Risk); !ok || p.Type == "" || p.Remediation == "" {
			t.Errorf("row %s incomplete: %+v", p.ID, p)
		}
		key := [2]string{p.Source, p.Target}
		if seen[key] {
			t.Errorf("row %s repeats %v", p.ID, key)
		}
		seen[key] = true
	}
	if len(db.Rows) >= 124 || len(db.Rows) < 110 {
		t.Errorf("synonyms should merge a few rows: %d loaded", len(db.Rows))
	}
	user, err := db.With([]Pattern{{ID: "U1", Source: "read_file", Target: "http_request", Type: "mine", Risk: "low", Remediation: "x"},
		{ID: "U2", Source: "read_issue", Target: "create_issue", Type: "issue_to_issue", Risk: "high", Remediation: "y"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(user.Rows) != len(db.Rows)+1 || user.Rows[5].ID != "U1" {
		t.Errorf("a user row must replace the same pair in place and add new pairs at the end")
	}
	if _, err := db.With([]Pattern{{ID: "bad", Source: "a", Target: "b", Type: "t", Risk: "severe"}}); err == nil {
		t.Error("an unknown risk must be an error")
	}
}

// g builds a graph: agents with their tools (by name) and links.
type gb struct {
	agents []*capgraph.Agent
	tools  map[string]*capgraph.Tool
	order  []*capgraph.Tool
	uses   []capgraph.Use
	links  []capgraph.Link
}

func newGB() *gb { return &gb{tools: map[string]*capgraph.Tool{}} }

func (b *gb) agent(id string, tools ...*capgraph.Tool) *gb {
	loc := extract.Loc{File: id + ".py", Start: extract.Point{Line: 1, Col: 1}}
	b.agents = append(b.agents, &capgraph.Agent{ID: id, Name: id, Framework: "test", Loc: loc, Src: &extract.Agent{ID: id, Name: id}})
	for _, t := range tools {
		if b.tools[t.ID] == nil {
			b.tools[t.ID] = t
			b.order = append(b.order, t)
		}
		u := capgraph.Use{Agent: id, Tool: t.ID, Loc: loc}
		if t.Framework == extract.FrameworkClaudeCode {
			u.Grants = []capgraph.Grant{{Loc: t.Loc, Why: "allowed without asking by the rule " + t.Name}}
		}
		b.uses = append(b.uses, u)
	}
	return b
}

func (b *gb) link(from, to string, k capgraph.EdgeKind) *gb {
	b.links = append(b.links, capgraph.Link{From: from, To: to, Kind: k})
	return b
}

func (b *gb) build() *capgraph.Graph {
	return capgraph.Build(b.agents, b.order, nil, b.uses, b.links)
}

// claude makes a Claude Code tool the way the workspace does.
func claude(rule string) *capgraph.Tool {
	tool, spec := extract.ParseRule(rule)
	l := extract.Loc{File: ".claude/settings.json", Start: extract.Point{Line: 1, Col: 1}}
	src := &extract.Tool{ID: "cc#" + rule, Name: rule, Framework: extract.FrameworkClaudeCode, Kind: extract.ToolBuiltin}
	if tool == "Bash" && (spec == "" || spec == "*") {
		src.Extra = map[extract.ExtraKey]string{extract.ExtraShell: "unscoped"}
	}
	return &capgraph.Tool{ID: src.ID, Name: rule, Framework: extract.FrameworkClaudeCode, Kind: extract.ToolBuiltin, Loc: l, Src: src,
		Effects: effects.DefaultCatalog().ClaudeTool(tool, spec, l)}
}

// roleTool makes a tool with the given roles and an egress action.
func roleTool(id string, roles ...string) *capgraph.Tool {
	e := effects.Unknown("test tool", extract.Loc{})
	for _, r := range roles {
		e.AddRole(r, effects.ByRules)
	}
	return &capgraph.Tool{ID: id, Name: id, Framework: "test", Effects: e, Src: &extract.Tool{ID: id, Name: id}}
}

func chains(g *capgraph.Graph) []*Finding { return dangerousChain(&Input{Graph: g}) }

func summary(fs []*Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s %s %s:%s", f.Agent, f.ChainType, f.Severity, f.VulnerabilityType, strings.Join(f.Chain, ">")))
	}
	return out
}

// TestClaudeCodeToolNames mirrors ZIRAN's TestClaudeCodeToolNames (scanners.md §1.13).
func TestClaudeCodeToolNames(t *testing.T) {
	for _, tc := range []struct {
		tools []string
		want  string // substring of the only finding, "" for none
	}{
		{[]string{"Read", "WebFetch"}, "critical data_exfiltration:Read>WebFetch"},
		{[]string{"Read", "Grep", "Glob"}, ""},
		{[]string{"Read", "mcp__slack__slack_send_message"}, "critical data_exfiltration:Read>mcp__slack__slack_send_message"},
		{[]string{"Agent", "Bash(npm test:*)"}, "critical delegation_to_rce:Agent>Bash(npm test:*)"},
		{[]string{"Read", "Bash(git push:*)"}, "critical code_exfiltration:Read>Bash(git push:*)"},
		{[]string{"Read(./.env)", "mcp__slack__slack_send_message"}, "critical secret_file_exfiltration:Read(./.env)>mcp__slack__slack_send_message"},
		{[]string{"Read", "WebSearch"}, ""},
	} {
		var ts []*capgraph.Tool
		for _, n := range tc.tools {
			ts = append(ts, claude(n))
		}
		got := summary(chains(newGB().agent("cc", ts...).build()))
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%v: want no chain, got %v", tc.tools, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%v: got %v, want one %q", tc.tools, got, tc.want)
		}
	}
}

func TestUnrestrictedExecution(t *testing.T) {
	for rule, want := range map[string]int{"Bash": 1, "Bash(*)": 1, "Bash(git push:*)": 0, "Bash(npm test:*)": 0} {
		g := newGB().agent("cc", claude(rule)).build()
		fs := unrestrictedExecution(&Input{Graph: g})
		if len(fs) != want {
			t.Errorf("%s: %d findings, want %d", rule, len(fs), want)
			continue
		}
		if want == 1 && (fs[0].Severity != High || fs[0].VulnerabilityType != "unrestricted_execution") {
			t.Errorf("%s: %+v", rule, fs[0])
		}
	}
	// An approval on the use (an ask rule, a hook) gates it.
	b := newGB().agent("cc", claude("Bash"))
	b.uses[0].Gates = []*extract.Approval{{Kind: "ask_rule", All: true}}
	if fs := unrestrictedExecution(&Input{Graph: b.build()}); len(fs) != 0 {
		t.Errorf("gated Bash reported: %v", summary(fs))
	}
}

func TestChainTypesAndGates(t *testing.T) {
	read, send := roleTool("read", "read_file"), roleTool("send", "http_request")
	// Direct.
	if got := summary(chains(newGB().agent("a", read, send).build())); len(got) != 1 || !strings.Contains(got[0], "a direct critical") {
		t.Errorf("direct: %v", got)
	}
	// A gate before the target breaks the chain.
	b := newGB().agent("a", read, send)
	b.uses[1].Gates = []*extract.Approval{{Kind: "interrupt", All: true}}
	if got := chains(b.build()); len(got) != 0 {
		t.Errorf("gated target still chained: %v", summary(got))
	}
	// Indirect through a handoff, one agent in between; not backwards.
	g := newGB().agent("a", read).agent("m").agent("z", send).link("a", "m", capgraph.EdgeHandoff).link("m", "z", capgraph.EdgeHandoff).build()
	if got := chains(g); len(got) != 1 || got[0].ChainType != "indirect" || got[0].Agent != "z" || strings.Join(got[0].InScope, ",") != "a,m,z" || got[0].RiskScore < 0.8 || got[0].RiskScore > 0.95 {
		t.Errorf("indirect: %v %+v", summary(got), got)
	}
	g = newGB().agent("z", read).agent("a", send).link("a", "z", capgraph.EdgeHandoff).build()
	if got := chains(g); len(got) != 0 {
		t.Errorf("a handoff does not carry data back: %v", summary(got))
	}
	// A sub-agent's result comes back to its caller, whose target it is.
	g = newGB().agent("a", send).agent("z", read).link("a", "z", capgraph.EdgeSubAgent).build()
	if got := chains(g); len(got) != 1 || got[0].Agent != "a" {
		t.Errorf("sub-agent result: %v", summary(got))
	}
	// Too far: three agents in between.
	g = newGB().agent("a", read).agent("b").agent("c").agent("z", send).
		link("a", "b", capgraph.EdgeHandoff).link("b", "c", capgraph.EdgeHandoff).link("c", "z", capgraph.EdgeHandoff).build()
	if got := chains(g); len(got) != 0 {
		t.Errorf("path longer than three agents: %v", summary(got))
	}
	// A cycle of handoffs.
	g = newGB().agent("a", read).agent("b").agent("z", send).
		link("a", "b", capgraph.EdgeHandoff).link("b", "z", capgraph.EdgeHandoff).link("z", "a", capgraph.EdgeHandoff).build()
	got := chains(g)
	if len(got) != 1 || got[0].ChainType != "cycle" || got[0].RiskScore < 0.9 {
		t.Errorf("cycle: %v", summary(got))
	}
	if s := RiskScore(Critical, "cycle", 0.5); s != 0.975 {
		t.Errorf("RiskScore = %v", s)
	}
	if s := RiskScore(High, "direct", 1); s != 0.9 {
		t.Errorf("RiskScore = %v", s)
	}
	if s := RiskScore(Critical, "direct", 1); s != 1 {
		t.Errorf("RiskScore must cap at 1: %v", s)
	}
}

// TestFullyConnected: ZIRAN's cycle search does not finish at 12 fully
// connected tools; here 100 tools in one agent, and 100 agents all handing
// off to each other, give findings that grow with the tools (one per
// pattern and target tool), each listing every source of its pattern.
func TestFullyConnected(t *testing.T) {
	const n = 100
	perRole := n / len(roleMix)
	g := fullyConnectedTools(n)
	fs := chains(g)
	if len(fs) == 0 || len(fs) > 3*n {
		t.Fatalf("%d findings for one agent of %d tools", len(fs), n)
	}
	ids := map[string]bool{}
	for _, f := range fs {
		if ids[f.ID] {
			t.Errorf("duplicate finding %s", f.ID)
		}
		ids[f.ID] = true
		// Every tool of the source's role is a source (but the target).
		if len(f.Sources) < perRole-1 || len(f.Chains) != len(f.Sources) {
			t.Errorf("%s lists %d sources and %d chains, want every tool of the role (%d)", f.Message, len(f.Sources), len(f.Chains), perRole)
		}
	}
	g = fullyConnectedAgents(n)
	fs = chains(g)
	cycles := 0
	for _, f := range fs {
		if f.ChainType == "cycle" {
			cycles++
		}
	}
	if len(fs) == 0 || len(fs) > 3*n || cycles != len(fs) {
		t.Errorf("100 agents in one cycle: %d findings (%d cycle)", len(fs), cycles)
	}
}

var roleMix = []string{"read_file", "http_request", "shell_execute", "database_query", "send_email", "write_file", "browse_url", "read_env", "execute_code", "get_user_info"}

func fullyConnectedTools(n int) *capgraph.Graph {
	var ts []*capgraph.Tool
	for i := 0; i < n; i++ {
		ts = append(ts, roleTool(fmt.Sprintf("t%03d", i), roleMix[i%len(roleMix)]))
	}
	return newGB().agent("a", ts...).build()
}

func fullyConnectedAgents(n int) *capgraph.Graph {
	b := newGB()
	for i := 0; i < n; i++ {
		b.agent(fmt.Sprintf("a%03d", i), roleTool(fmt.Sprintf("t%03d", i), roleMix[i%len(roleMix)]))
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				b.link(fmt.Sprintf("a%03d", i), fmt.Sprintf("a%03d", j), capgraph.EdgeHandoff)
			}
		}
	}
	return b.build()
}

// The graphs are rebuilt each time: centrality and cycles are computed
// once per graph, and the benchmark counts them.
func BenchmarkChains100Tools(b *testing.B) {
	for i := 0; i < b.N; i++ {
		dangerousChain(&Input{Graph: fullyConnectedTools(100)})
	}
}

func BenchmarkChains100Agents(b *testing.B) {
	for i := 0; i < b.N; i++ {
		dangerousChain(&Input{Graph: fullyConnectedAgents(100)})
	}
}

// TestUserPatterns: .acg.yaml rows match a role or a tool's exact name,
// never a substring; a row for a built-in pair replaces it.
func TestUserPatterns(t *testing.T) {
	issue, deploy := roleTool("read_issue_tool", "read_issue"), roleTool("deploy_preview")
	g := newGB().agent("a", issue, deploy, roleTool("deploy_preview_v2")).build()
	rows := []config.ChainPattern{{Source: "read_issue", Target: "deploy_preview", Type: "issue_to_deploy", Severity: "critical", Pos: config.Pos{Line: 3}}}
	got := dangerousChain(&Input{Graph: g, ChainPatterns: rows})
	if len(got) != 1 || strings.Join(got[0].Chain, ">") != "read_issue_tool>deploy_preview" || got[0].VulnerabilityType != "issue_to_deploy" {
		t.Fatalf("user row: %v", summary(got))
	}
	if len(dangerousChain(&Input{Graph: g})) != 0 {
		t.Error("without the row there is no chain")
	}
	read, send := roleTool("r", "read_file"), roleTool("s", "http_request")
	g = newGB().agent("a", read, send).build()
	rows = []config.ChainPattern{{Source: "read_file", Target: "http_request", Type: "accepted_export", Severity: "low", Pos: config.Pos{Line: 9}}}
	got = dangerousChain(&Input{Graph: g, ChainPatterns: rows})
	if len(got) != 1 || got[0].Severity != Low || got[0].VulnerabilityType != "accepted_export" {
		t.Errorf("a user row must replace the built-in pair: %v", summary(got))
	}
}
