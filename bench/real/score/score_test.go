package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const synthLabels = `
repo: example/agents
complete: true
defaults:
  unrestricted_execution: "false: no client config"
agents:
  - file: app/mail.py:10
    name: Mailer
    framework: openai-agents
    rule_of_two: "true: reads mail, reads notes, sends mail"
    missing_approval: "true: sends mail unapproved"
  - file: app/search.py:5
    name: Searcher
    framework: openai-agents
    rule_of_two: "false: search only"
    missing_approval: "false: no action"
  - file: app/graph.py:20
    name: workflow
    aliases: [create_workflow]
    also: [app/graph.py:40]
    framework: langgraph
    rule_of_two: "uncertain: tools come from an MCP server not in the repo"
    missing_approval: "false: no action"
  - file: app/crew.py:8
    name: Senior React Engineer
    framework: crewai
    rule_of_two: "true: scrape, read, write"
    missing_approval: "false: writes only"
  - file: app/crew.py:30
    name: Senior React Engineer
    framework: crewai
    rule_of_two: "false: no tools in this one"
    missing_approval: "false: no tools"
  - file: app/lost.py:3
    name: Lost
    framework: langgraph
    rule_of_two: "true: never found by the scanner"
    missing_approval: "false: no action"
`

func synthScan() *Scan {
	return &Scan{
		Agents: []ScanAgent{
			{ID: "a1", Name: "Mailer", File: "app/mail.py", Line: 11},
			{ID: "a2", Name: "Searcher", File: "app/search.py", Line: 5},
			// named differently, reported at the compile line listed under also
			{ID: "a3", Name: "graph@40", File: "app/graph.py", Line: 40},
			// same name twice in one file: the line decides, and YAML quotes are ignored
			{ID: "a4", Name: `"Senior React Engineer"`, File: "app/crew.py", Line: 31},
			{ID: "a5", Name: `"Senior React Engineer"`, File: "app/crew.py", Line: 9},
			// an agent no label lists, in a complete label file
			{ID: "a6", Name: "Ghost", File: "app/ghost.py", Line: 1},
		},
		Findings: []ScanFinding{
			{Rule: "rule-of-two", Agent: "Mailer", AgentID: "a1", Triage: "confirmed", DecidedBy: "rules"},
			{Rule: "missing-approval", Agent: "Mailer", AgentID: "a1", Triage: "confirmed", DecidedBy: "catalog"},
			// no agent_id (an older binary): found by name and file
			{Rule: "missing-approval", Agent: "Searcher", Location: Where{"app/search.py", 5}, Triage: "needs review: a leg is assumed", DecidedBy: "default"},
			{Rule: "rule-of-two", Agent: "graph@40", AgentID: "a3", Triage: "needs_review", DecidedBy: "default"},
			{Rule: "rule-of-two", Agent: `"Senior React Engineer"`, Location: Where{"app/crew.py", 9}, Triage: "confirmed"},
			{Rule: "rule-of-two", Agent: "Ghost", AgentID: "a6", Triage: "confirmed"},
			{Rule: "toxic-flow", Agent: "Mailer", AgentID: "a1", Triage: "confirmed"},
		},
	}
}

func TestParseLabels(t *testing.T) {
	lf, err := parseLabels([]byte(synthLabels))
	if err != nil {
		t.Fatal(err)
	}
	if !lf.Complete || len(lf.Agents) != 6 {
		t.Fatalf("complete=%v agents=%d", lf.Complete, len(lf.Agents))
	}
	a := lf.Agents[2]
	if a.Verdicts["rule-of-two"] != Uncertain || a.Verdicts["unrestricted-execution"] != False {
		t.Errorf("verdicts %v", a.Verdicts)
	}
	if len(a.Also) != 1 || a.Also[0] != (Loc{"app/graph.py", 40}) {
		t.Errorf("also %v", a.Also)
	}
	if a.Reasons["unrestricted-execution"] != "no client config" {
		t.Errorf("default reason %q", a.Reasons["unrestricted-execution"])
	}
}

func TestParseLabelsRejects(t *testing.T) {
	for name, body := range map[string]string{
		"no reason":     "repo: r\nagents:\n  - {file: a.py:1, name: A, rule_of_two: \"true\", missing_approval: \"false: x\", unrestricted_execution: \"false: x\"}\n",
		"bad verdict":   "repo: r\nagents:\n  - {file: a.py:1, name: A, rule_of_two: \"maybe: x\", missing_approval: \"false: x\", unrestricted_execution: \"false: x\"}\n",
		"missing rule":  "repo: r\nagents:\n  - {file: a.py:1, name: A, rule_of_two: \"true: x\"}\n",
		"no line":       "repo: r\nagents:\n  - {file: a.py, name: A, rule_of_two: \"true: x\", missing_approval: \"false: x\", unrestricted_execution: \"false: x\"}\n",
		"no repo":       "agents: []\n",
		"verdict bool":  "repo: r\nagents:\n  - {file: a.py:1, name: A, rule_of_two: true, missing_approval: \"false: x\", unrestricted_execution: \"false: x\"}\n",
		"no agent name": "repo: r\nagents:\n  - {file: a.py:1, rule_of_two: \"true: x\", missing_approval: \"false: x\", unrestricted_execution: \"false: x\"}\n",
	} {
		if _, err := parseLabels([]byte(body)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestMatch(t *testing.T) {
	lf, err := parseLabels([]byte(synthLabels))
	if err != nil {
		t.Fatal(err)
	}
	got := Match(lf.Agents, synthScan().Agents)
	want := map[int]int{0: 0, 1: 1, 2: 2, 3: 4, 4: 3}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for l, f := range want {
		if got[l] != f {
			t.Errorf("label %d matched %d, want %d (all: %v)", l, got[l], f, got)
		}
	}
}

func TestMatchNeedsSameFile(t *testing.T) {
	la := []*LabelledAgent{{Name: "agent", Loc: Loc{"a.py", 10}}}
	if got := Match(la, []ScanAgent{{Name: "agent", File: "b.py", Line: 10}}); len(got) != 0 {
		t.Errorf("matched across files: %v", got)
	}
	if got := Match(la, []ScanAgent{{Name: "other", File: "a.py", Line: 14}}); len(got) != 0 {
		t.Errorf("matched a different name outside the window: %v", got)
	}
	if got := Match(la, []ScanAgent{{Name: "other", File: "a.py", Line: 13}}); len(got) != 1 {
		t.Errorf("did not match by line inside the window: %v", got)
	}
	m := []*LabelledAgent{{Name: "_process_request", Loc: Loc{"a.py", 10}}}
	if got := Match(m, []ScanAgent{{Name: "Executor._process_request", File: "a.py", Line: 40}}); len(got) != 1 {
		t.Errorf("a Class.method name did not match the bare method name: %v", got)
	}
	if got := Match(m, []ScanAgent{{Name: "Executor.process_request", File: "a.py", Line: 40}}); len(got) != 0 {
		t.Errorf("matched a different method: %v", got)
	}
}

func TestScore(t *testing.T) {
	lf, err := parseLabels([]byte(synthLabels))
	if err != nil {
		t.Fatal(err)
	}
	s := Score([]RepoInput{{Target: Target{Repo: "example/agents"}, Labels: lf, Scan: synthScan()}})
	if s.Labelled != 6 || s.Found != 5 || len(s.Missed) != 1 || s.Missed[0].Agent != "Lost" {
		t.Fatalf("labelled %d found %d missed %v", s.Labelled, s.Found, s.Missed)
	}
	r2 := s.Rules["rule-of-two"]
	// TP Mailer and the first engineer; FN Lost; FP Ghost (complete list); the graph is uncertain.
	if r2.TP != 2 || r2.FP != 1 || r2.FN != 1 || r2.TN != 2 || r2.Uncertain != 1 || r2.UncertainFired != 1 {
		t.Errorf("rule-of-two %+v", *r2)
	}
	ma := s.Rules["missing-approval"]
	// TP Mailer; FP Searcher (found by name and file, no agent_id).
	if ma.TP != 1 || ma.FP != 1 || ma.FN != 0 || ma.TN != 4 {
		t.Errorf("missing-approval %+v", *ma)
	}
	if *r2.Precision != 2.0/3 || *r2.Recall != 2.0/3 {
		t.Errorf("rule-of-two precision %v recall %v", *r2.Precision, *r2.Recall)
	}
	if ue := s.Rules["unrestricted-execution"]; ue.Precision != nil || ue.Recall != nil || ue.TN != 6 {
		t.Errorf("unrestricted-execution %+v", *ue)
	}
	if s.Findings != 7 || s.NeedsReview != 2 || s.DecidedDefault != 2 {
		t.Errorf("findings %d needs_review %d default %d", s.Findings, s.NeedsReview, s.DecidedDefault)
	}
	if len(s.Orphans) != 1 || !s.Orphans[0].Counted || s.Orphans[0].Agent != "Ghost" {
		t.Errorf("orphans %+v", s.Orphans)
	}

	// The same scan against an incomplete label list lists Ghost without counting it.
	lf.Complete = false
	s = Score([]RepoInput{{Target: Target{Repo: "example/agents"}, Labels: lf, Scan: synthScan()}})
	if r2 := s.Rules["rule-of-two"]; r2.FP != 0 || len(s.Orphans) != 1 || s.Orphans[0].Counted {
		t.Errorf("incomplete list: rule-of-two %+v orphans %+v", *r2, s.Orphans)
	}
}

func TestFailedScanCountsAsNothingFound(t *testing.T) {
	lf, err := parseLabels([]byte(synthLabels))
	if err != nil {
		t.Fatal(err)
	}
	s := Score([]RepoInput{{Target: Target{Repo: "example/agents"}, Labels: lf, Err: os.ErrNotExist}})
	if s.Found != 0 || s.Rules["rule-of-two"].FN != 3 || !strings.Contains(s.Repos[0].Error, "not exist") {
		t.Errorf("found %d FN %d error %q", s.Found, s.Rules["rule-of-two"].FN, s.Repos[0].Error)
	}
}

// The committed manifest and labels must always load: a malformed label file would
// otherwise surface only when someone runs the evaluation against the mirrors.
func TestCommittedLabelsLoad(t *testing.T) {
	m, lfs, err := loadManifest(filepath.Join("..", "manifest.yaml"), filepath.Join("..", "labels"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Targets) < 15 {
		t.Errorf("%d targets, want at least 15", len(m.Targets))
	}
	files, _ := filepath.Glob(filepath.Join("..", "labels", "*.yaml"))
	if len(files) != len(lfs) {
		t.Errorf("%d label files but %d targets: every label file needs a manifest entry", len(files), len(lfs))
	}
}

// TestNotebookLabels: a label may name a Jupyter notebook (its line is the
// .ipynb JSON line acg reports) and matches acg's agent there.
func TestNotebookLabels(t *testing.T) {
	lf, err := parseLabels([]byte(`repo: example/course
complete: true
agents:
  - file: module-1/agent.ipynb:246
    also: [module-1/agent.ipynb:261]
    name: react_graph
    framework: langgraph
    rule_of_two: "false: pure tools"
    missing_approval: "false: no effects"
    unrestricted_execution: "false: no config"
`))
	if err != nil {
		t.Fatal(err)
	}
	a := lf.Agents[0]
	if a.Loc != (Loc{"module-1/agent.ipynb", 246}) || a.Also[0] != (Loc{"module-1/agent.ipynb", 261}) {
		t.Fatalf("locations %v %v", a.Loc, a.Also)
	}
	m := Match(lf.Agents, []ScanAgent{{ID: "module-1/agent.ipynb#react_graph", Name: "react_graph", File: "module-1/agent.ipynb", Line: 261}})
	if j, ok := m[0]; !ok || j != 0 {
		t.Errorf("match %v", m)
	}
}
