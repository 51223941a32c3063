package incremental

import (
	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
)

// Result is the analysis of one snapshot.
type Result struct {
	Graph    *capgraph.Graph
	Findings []*policy.Finding
	Problems []extract.Problem
	// Suppressed are the findings an inline comment or the config
	// suppresses, each with its Suppression; Findings holds the rest.
	Suppressed []*policy.Finding
	// Config is the .acg.yaml in force (nil for none); ConfigErr says why
	// it was not applied (its problems are also in Problems).
	Config    *config.Config
	ConfigErr error
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
		s.result = &Result{Graph: g, Problems: problems}
		s.runChecks(s.result)
	})
	return s.result
}
