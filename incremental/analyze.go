package incremental

import (
	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
)

// Result is the analysis of one snapshot.
type Result struct {
	Graph    *capgraph.Graph
	Findings []*policy.Finding
	Problems []extract.Problem
}

// Analyze runs resolution, effects, the capability graph and every check.
// It is computed once per snapshot and shared by all readers.
func (s *Snapshot) Analyze() *Result {
	s.once.Do(func() {
		var facts []*extract.File
		var problems []extract.Problem
		for _, f := range s.Files() {
			if f.Facts != nil {
				facts = append(facts, f.Facts)
				problems = append(problems, f.Facts.Problems...)
			}
		}
		g := buildGraph(facts)
		s.result = &Result{Graph: g, Findings: policy.Run(&policy.Input{Graph: g}, nil), Problems: problems}
	})
	return s.result
}
