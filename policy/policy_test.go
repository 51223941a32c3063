package policy

import (
	"fmt"
	"testing"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
)

// fx builds effects with the given labels decided by rules.
func fx(labels ...effects.Label) *effects.Effects {
	e := effects.Unknown("", extract.Loc{})
	for _, l := range effects.Labels {
		r := e.Labels[l]
		r.Value, r.DecidedBy, r.Evidence = false, effects.ByRules, nil
	}
	for _, l := range labels {
		r := e.Labels[l]
		r.Value = true
		r.Evidence = []effects.Evidence{{Label: l, Kind: "test", Detail: "test evidence"}}
	}
	return e
}

func loc(f string, line int) extract.Loc {
	return extract.Loc{File: f, Start: extract.Point{Line: int32(line), Col: 1}}
}

type world struct {
	agents []*capgraph.Agent
	tools  []*capgraph.Tool
	uses   []capgraph.Use
	links  []capgraph.Link
}

func (w *world) agent(id string) {
	w.agents = append(w.agents, &capgraph.Agent{ID: id, Name: id, Loc: loc("a.py", len(w.agents)+1)})
}

func (w *world) tool(id string, e *effects.Effects, aps ...*extract.Approval) *capgraph.Tool {
	t := &capgraph.Tool{ID: id, Name: id, Effects: e, Approvals: aps, Loc: loc("t.py", len(w.tools)+1)}
	w.tools = append(w.tools, t)
	return t
}

func (w *world) use(agent, tool string, gates ...*extract.Approval) {
	w.uses = append(w.uses, capgraph.Use{Agent: agent, Tool: tool, Gates: gates})
}

func (w *world) run(rule string) []*Finding {
	g := capgraph.Build(w.agents, w.tools, nil, w.uses, w.links)
	return mustRun(&Input{Graph: g}, map[string]bool{rule: true})
}

// mustRun is Run for tests, where a panicking check is a bug to show.
func mustRun(in *Input, enabled map[string]bool) []*Finding {
	fs, failed := Run(in, enabled)
	for _, f := range failed {
		panic(fmt.Sprintf("check %s panicked: %s\n%s", f.Check, f.Panic, f.Stack))
	}
	return fs
}

// TestRunIsolatesChecks: a check that panics (here on an input without a
// graph) costs its own findings and is reported; the run goes on.
func TestRunIsolatesChecks(t *testing.T) {
	fs, failed := Run(&Input{}, nil)
	if len(failed) == 0 {
		t.Fatal("no check failed on an input without a graph: the test no longer shows isolation")
	}
	names := map[string]bool{}
	for _, c := range Checks() {
		names[c.Name] = true
	}
	for _, f := range failed {
		if !names[f.Check] || f.Panic == "" || f.Stack == "" {
			t.Errorf("failure %+v does not name a check, its panic and its stack", f)
		}
	}
	_ = fs
}

func trifecta(w *world, agent string) {
	w.agent(agent)
	w.tool("read_email", fx(effects.UntrustedInput))
	w.tool("read_notes", fx(effects.ReadsPrivate))
	w.tool("send_http", fx(effects.NetworkEgress, effects.Irreversible))
	for _, t := range []string{"read_email", "read_notes", "send_http"} {
		w.use(agent, t)
	}
}

func TestRuleOfTwo(t *testing.T) {
	all := &extract.Approval{Kind: "needs_approval", All: true}
	cases := []struct {
		name  string
		setup func(w *world)
		want  int
	}{
		{"three legs", func(w *world) { trifecta(w, "a") }, 1},
		{"two legs", func(w *world) {
			w.agent("a")
			w.tool("read_email", fx(effects.UntrustedInput))
			w.tool("send_http", fx(effects.NetworkEgress))
			w.use("a", "read_email")
			w.use("a", "send_http")
		}, 0},
		{"tool-level gate on the sink", func(w *world) {
			w.agent("a")
			w.tool("read_email", fx(effects.UntrustedInput))
			w.tool("read_notes", fx(effects.ReadsPrivate))
			w.tool("send_http", fx(effects.NetworkEgress), all)
			w.use("a", "read_email")
			w.use("a", "read_notes")
			w.use("a", "send_http")
		}, 0},
		{"gate on the wrong tool", func(w *world) {
			w.agent("a")
			w.tool("read_email", fx(effects.UntrustedInput), all)
			w.tool("read_notes", fx(effects.ReadsPrivate))
			w.tool("send_http", fx(effects.NetworkEgress))
			w.use("a", "read_email")
			w.use("a", "read_notes")
			w.use("a", "send_http")
		}, 1},
		{"agent-level gate on the sink's use", func(w *world) {
			w.agent("a")
			w.tool("read_email", fx(effects.UntrustedInput))
			w.tool("read_notes", fx(effects.ReadsPrivate))
			w.tool("send_http", fx(effects.NetworkEgress))
			w.use("a", "read_email")
			w.use("a", "read_notes")
			w.use("a", "send_http", &extract.Approval{Kind: "interrupt_before", Nodes: []string{"tools"}})
		}, 0},
		{"legs spread across a handoff", func(w *world) {
			w.agent("triage")
			w.agent("mail")
			w.tool("read_email", fx(effects.UntrustedInput))
			w.tool("read_notes", fx(effects.ReadsPrivate))
			w.tool("send_http", fx(effects.NetworkEgress))
			w.use("triage", "read_email")
			w.use("mail", "read_notes")
			w.use("mail", "send_http")
			w.links = append(w.links, capgraph.Link{From: "triage", To: "mail", Kind: capgraph.EdgeHandoff})
		}, 1},
		{"agent-as-tool gated with needs_approval gates its whole reach", func(w *world) {
			w.agent("boss")
			w.agent("worker")
			w.tool("read_email", fx(effects.UntrustedInput))
			w.tool("read_notes", fx(effects.ReadsPrivate))
			w.tool("send_http", fx(effects.NetworkEgress))
			wt := w.tool("ask_worker", fx(), all)
			wt.Agent = "worker"
			w.use("boss", "read_email")
			w.use("boss", "read_notes")
			w.use("boss", "ask_worker")
			w.use("worker", "send_http")
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &world{}
			tc.setup(w)
			got := w.run("rule-of-two")
			if len(got) != tc.want {
				t.Fatalf("findings = %d, want %d", len(got), tc.want)
			}
		})
	}
}

func TestRuleOfTwoFinding(t *testing.T) {
	w := &world{}
	trifecta(w, "inbox")
	fs := w.run("rule-of-two")
	if len(fs) != 1 {
		t.Fatalf("findings = %d", len(fs))
	}
	f := fs[0]
	if f.Severity != Critical || f.RiskScore != 1 || f.ChainType != "direct" {
		t.Errorf("severity %s risk %v chain %s", f.Severity, f.RiskScore, f.ChainType)
	}
	if got := f.Chain; len(got) != 3 || got[0] != "read_email" || got[1] != "read_notes" || got[2] != "send_http" {
		t.Errorf("chain = %v", got)
	}
	if f.VulnerabilityType != "data_exfiltration" || len(f.Taxonomy.OWASPLLM) == 0 || f.Remediation == "" {
		t.Errorf("classification incomplete: %+v", f)
	}
	// The id depends on the rule and the agent only: stable across runs.
	w2 := &world{}
	trifecta(w2, "inbox")
	w2.tool("extra", fx(effects.UntrustedInput))
	w2.use("inbox", "extra")
	if id := w2.run("rule-of-two")[0].ID; id != f.ID {
		t.Errorf("id changed from %s to %s when another tool was added", f.ID, id)
	}
}

func TestDefaultLegLowersSeverity(t *testing.T) {
	w := &world{}
	w.agent("a")
	w.tool("mystery", effects.Unknown("nothing is known", loc("t.py", 1)))
	w.use("a", "mystery")
	fs := w.run("rule-of-two")
	if len(fs) != 1 || fs[0].Severity != High || fs[0].DecidedBy != "default" {
		t.Fatalf("an assumed trifecta is reported as high, decided by default: %+v", fs)
	}
}

func TestMissingApproval(t *testing.T) {
	w := &world{}
	w.agent("a")
	w.tool("read_web", fx(effects.UntrustedInput))
	w.tool("rm", fx(effects.WritesState, effects.Irreversible))
	w.tool("shell", fx(effects.ExecutesCode))
	w.tool("save", fx(effects.WritesState))
	for _, t := range []string{"read_web", "rm", "shell", "save"} {
		w.use("a", t)
	}
	fs := w.run("missing-approval")
	var sinks []string
	for _, f := range fs {
		sinks = append(sinks, f.Sink)
	}
	if len(fs) != 2 || sinks[0] == sinks[1] {
		t.Fatalf("want findings for rm and shell only, got %v", sinks)
	}
}

func TestRiskScore(t *testing.T) {
	for _, tc := range []struct {
		sev   Severity
		chain string
		c     float64
		want  float64
	}{
		{Critical, "direct", 0, 1},
		{Critical, "indirect", 0.5, 0.875},
		{High, "direct", 0, 0.75},
		{Medium, "cycle", 1, 0.6},
		{Low, "direct", 0, 0.25},
	} {
		if got := RiskScore(tc.sev, tc.chain, tc.c); got != tc.want {
			t.Errorf("RiskScore(%s, %s, %v) = %v, want %v", tc.sev, tc.chain, tc.c, got, tc.want)
		}
	}
}
