package main

import "sort"

// RuleScore counts one rule's outcomes on labelled agents. Agents, not findings, are
// counted, so a binary that reports one finding per (agent, tool) pair is not
// rewarded or punished for the repetition; Findings* count the findings behind them.
type RuleScore struct {
	TP, FP, FN, TN int
	// Uncertain labelled agents and how many of them got the finding.
	Uncertain, UncertainFired int
	// FindingsOnTP and FindingsOnFP count the rule's findings on TP and FP agents.
	FindingsOnTP, FindingsOnFP int
	Precision, Recall          *float64 // nil when undefined (no positives)
}

// Case is one false positive or false negative, for the report.
type Case struct {
	Repo, Rule, Agent, Framework string
	Loc                          string
	Why                          string // the label's reason
	Findings                     int
	NeedsReview                  int // findings among them with triage needs_review
	DecidedBy                    []string
}

// Orphan is a finding on an agent that no label describes.
type Orphan struct {
	Repo, Rule, Agent, Loc, Triage string
	Counted                        bool // counted as FP because the label list is complete
}

// RepoSummary is one repository's line in the table.
type RepoSummary struct {
	Repo                       string
	Labelled, Found, AcgAgents int
	Findings, NeedsReview      int
	Missing                    int // blobs absent from the mirror
	Notices                    int
	Error                      string `json:",omitempty"`
}

// Summary is the whole evaluation's result.
type Summary struct {
	Date, Acg, AcgCommit string
	Repos                []RepoSummary
	Labelled, Found      int
	AgentRecall          *float64
	Rules                map[string]*RuleScore
	Findings             int
	NeedsReview          int
	DecidedDefault       int
	NeedsReviewShare     *float64
	DefaultShare         *float64
	Missed               []Case
	FalsePositives       []Case
	FalseNegatives       []Case
	Orphans              []Orphan
}

// RepoInput is what scoring needs for one repository.
type RepoInput struct {
	Target  Target
	Labels  *LabelFile
	Scan    *Scan // nil when the scan failed
	Missing int
	Err     error
}

func newSummary() *Summary {
	s := &Summary{Rules: map[string]*RuleScore{}}
	for _, r := range scoredRules {
		s.Rules[r] = &RuleScore{}
	}
	return s
}

// Score compares every repository's scan with its labels.
func Score(inputs []RepoInput) *Summary {
	s := newSummary()
	for _, in := range inputs {
		s.addRepo(in)
	}
	s.finish()
	return s
}

func (s *Summary) addRepo(in RepoInput) {
	rs := RepoSummary{Repo: in.Target.Repo, Labelled: len(in.Labels.Agents), Missing: in.Missing}
	if in.Err != nil {
		rs.Error = in.Err.Error()
	}
	scan := in.Scan
	if scan == nil {
		scan = &Scan{}
	}
	rs.AcgAgents, rs.Notices = len(scan.Agents), len(scan.Notices)
	s.Labelled += len(in.Labels.Agents)

	// Findings by acg agent and rule; findings naming no agent stay apart.
	byAgent := map[int]map[string][]ScanFinding{}
	var noAgent []ScanFinding
	for _, f := range scan.Findings {
		rs.Findings++
		s.Findings++
		if f.NeedsReview() {
			rs.NeedsReview++
			s.NeedsReview++
		}
		if f.DecidedBy == "default" {
			s.DecidedDefault++
		}
		ai := FindingAgent(f, scan.Agents)
		if ai < 0 {
			noAgent = append(noAgent, f)
			continue
		}
		if byAgent[ai] == nil {
			byAgent[ai] = map[string][]ScanFinding{}
		}
		byAgent[ai][f.Rule] = append(byAgent[ai][f.Rule], f)
	}

	m := Match(in.Labels.Agents, scan.Agents)
	matched := map[int]bool{}
	for li, la := range in.Labels.Agents {
		fi, found := m[li]
		if found {
			rs.Found++
			s.Found++
			matched[fi] = true
		} else {
			s.Missed = append(s.Missed, Case{Repo: la.Repo, Agent: la.Name, Framework: la.Framework, Loc: la.Loc.String()})
		}
		for _, rule := range scoredRules {
			var fs []ScanFinding
			if found {
				fs = byAgent[fi][rule]
			}
			rsc := s.Rules[rule]
			c := Case{Repo: la.Repo, Rule: rule, Agent: la.Name, Framework: la.Framework,
				Loc: la.Loc.String(), Why: la.Reasons[rule], Findings: len(fs)}
			for _, f := range fs {
				if f.NeedsReview() {
					c.NeedsReview++
				}
				c.DecidedBy = appendUnique(c.DecidedBy, f.DecidedBy)
			}
			switch v := la.Verdicts[rule]; {
			case v == Uncertain:
				rsc.Uncertain++
				if len(fs) > 0 {
					rsc.UncertainFired++
				}
			case v == True && len(fs) > 0:
				rsc.TP++
				rsc.FindingsOnTP += len(fs)
			case v == True:
				rsc.FN++
				s.FalseNegatives = append(s.FalseNegatives, c)
			case v == False && len(fs) > 0:
				rsc.FP++
				rsc.FindingsOnFP += len(fs)
				s.FalsePositives = append(s.FalsePositives, c)
			case v == False:
				rsc.TN++
			}
		}
	}

	// Findings on agents no label describes: listed, and counted as false positives
	// only when the label file says its list of agents is complete.
	orphan := func(f ScanFinding) {
		o := Orphan{Repo: in.Target.Repo, Rule: f.Rule, Agent: f.Agent,
			Loc: Loc{File: f.Location.File, Line: f.Location.Line}.String(), Triage: f.Triage}
		o.Counted = in.Labels.Complete && isScored(f.Rule)
		s.Orphans = append(s.Orphans, o)
	}
	unlabelledAgents := map[int]bool{}
	for ai := range scan.Agents {
		if !matched[ai] {
			unlabelledAgents[ai] = true
		}
	}
	var ais []int
	for ai := range unlabelledAgents {
		ais = append(ais, ai)
	}
	sort.Ints(ais)
	for _, ai := range ais {
		a := scan.Agents[ai]
		for _, rule := range sortedRules(byAgent[ai]) {
			fs := byAgent[ai][rule]
			for _, f := range fs {
				orphan(f)
			}
			if in.Labels.Complete && isScored(rule) {
				s.Rules[rule].FP++
				s.Rules[rule].FindingsOnFP += len(fs)
				s.FalsePositives = append(s.FalsePositives, Case{Repo: in.Target.Repo, Rule: rule,
					Agent: a.Name, Framework: a.Framework, Loc: Loc{File: a.File, Line: a.Line}.String(),
					Why: "not an agent: the repository's label list is complete", Findings: len(fs)})
			}
		}
	}
	for _, f := range noAgent {
		orphan(f)
	}
	s.Repos = append(s.Repos, rs)
}

func (s *Summary) finish() {
	s.AgentRecall = ratio(s.Found, s.Labelled)
	s.NeedsReviewShare = ratio(s.NeedsReview, s.Findings)
	s.DefaultShare = ratio(s.DecidedDefault, s.Findings)
	for _, r := range s.Rules {
		r.Precision = ratio(r.TP, r.TP+r.FP)
		r.Recall = ratio(r.TP, r.TP+r.FN)
	}
}

func ratio(a, b int) *float64 {
	if b == 0 {
		return nil
	}
	v := float64(a) / float64(b)
	return &v
}

func isScored(rule string) bool {
	for _, r := range scoredRules {
		if r == rule {
			return true
		}
	}
	return false
}

func sortedRules(m map[string][]ScanFinding) []string {
	var out []string
	for r := range m {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

func appendUnique(xs []string, x string) []string {
	if x == "" {
		return xs
	}
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
