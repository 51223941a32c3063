package incremental

import (
	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/builtin"
	"github.com/acg-dev/acg/resolve"
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
	// Flows are the proven flows the checks used (builtin and external).
	Flows []prove.Flow
	// CheckFailures are the checks that panicked on this input: their
	// findings are missing (the CLI makes each a notice; the language
	// server logs it).
	CheckFailures []policy.CheckFailure
}

// Analyze runs resolution, effects, the capability graph, the builtin
// prover and every check. It is computed once per snapshot and shared by
// all readers.
func (s *Snapshot) Analyze() *Result {
	s.once.Do(func() { s.result = s.analyze(nil, true) })
	return s.result
}

// AnalyzeWith analyses the snapshot with flows from external provers
// (Opengrep, CodeQL) merged after the builtin ones (without builtin: only
// the given flows). It is not cached: callers keep the result.
func (s *Snapshot) AnalyzeWith(external []prove.Flow, withBuiltin bool) *Result {
	return s.analyze(external, withBuiltin)
}

func (s *Snapshot) analyze(external []prove.Flow, withBuiltin bool) *Result {
	return s.finish(resolve.BuildGraph(s.facts()), external, withBuiltin)
}

// facts returns the extracted files in path order.
func (s *Snapshot) facts() []*extract.File {
	var facts []*extract.File
	for _, f := range s.Files() {
		if f.Facts() != nil {
			facts = append(facts, f.Facts())
		}
	}
	return facts
}

// finish proves the flows and runs the checks over the
// capability graph of the snapshot. Snapshot.Analyze and the language
// server's incremental Analyzer (components.go) share it.
func (s *Snapshot) finish(g *capgraph.Graph, external []prove.Flow, withBuiltin bool) *Result {
	var problems []extract.Problem
	var flows []prove.Flow
	for _, f := range s.Files() {
		if f.Facts() != nil {
			problems = append(problems, f.Facts().Problems...)
			if withBuiltin {
				flows = append(flows, f.builtinFlows()...)
			}
		}
	}
	r := &Result{Graph: g, Problems: problems, Flows: prove.Merge(flows, external)}
	s.runChecks(r)
	return r
}

// builtinFlows proves a file's flows once; unchanged files are shared
// between snapshots, so an edit re-proves only the edited file.
func (f *File) builtinFlows() []prove.Flow {
	f.flowsOnce.Do(func() {
		// Like extraction, a prover bug on one file must not take the
		// analysis (or the language server) down: that file proves nothing.
		defer func() {
			if recover() != nil {
				f.flows = nil
			}
		}()
		f.flows = builtin.Prove(f.Facts(), f.Src, "")
	})
	return f.flows
}
