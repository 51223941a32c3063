// Package builtin is acg's embedded taint prover: intra-file and
// inter-procedural, built on the flow facts package extract already
// computes (per-function origins with step chains, call sites with
// dominators) and on the call kinds of package effects. It needs no
// external tool and runs on every change.
//
// Sources are untrusted reads (network responses, mail, sockets,
// retrievers, browsers), function parameters (for a tool: chosen by the
// model) and model outputs. Sinks are egress, code execution, state writes,
// prompts and returns. Calls to functions of the same file go through
// per-function summaries (parameter to sink, source to return). A sink that
// a human approval dominates, in its function or at any call site on the
// way, is sanitised and yields no flow.
package builtin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
	"github.com/acg-dev/acg/prove/sarif"
)

// Limits keep pathological files linear: paths kept per summary entry and
// flows per file.
const (
	maxPaths = 4
	maxFlows = 2000
	maxDepth = 8
)

// Prove returns the flows of one source file (any front end's facts). src is the file's bytes (for
// exact positions); the flows are written as SARIF and read back through
// the same ingestion as Opengrep's and CodeQL's.
func Prove(f *extract.File, src []byte, version string) []prove.Flow {
	flows := Paths(f)
	if len(flows) == 0 {
		return nil
	}
	res := sarif.Ingest(sarif.Write(flows, version), sarif.Options{Source: func(rel string) []byte {
		if rel == f.Path {
			return src
		}
		return nil
	}})
	return res.Flows
}

// Paths computes the flows of one file directly, without the SARIF round
// trip.
func Paths(f *extract.File) []prove.Flow {
	if f == nil || !f.Lang.Code() {
		return nil
	}
	a := &analysis{f: f, rules: effects.DefaultRules(), sums: map[*extract.Func]*summary{},
		busy: map[*extract.Func]bool{}, seen: map[string]bool{}, byQual: map[string]*extract.Func{}}
	for _, fn := range f.Funcs {
		if _, dup := a.byQual[fn.Qual]; !dup {
			a.byQual[fn.Qual] = fn
		}
	}
	a.gates = effects.NewAnalyzer(fileResolver{a})
	for _, fn := range f.Funcs {
		a.summary(fn, 0)
	}
	sort.SliceStable(a.flows, func(i, j int) bool { return prove.Less(&a.flows[i], &a.flows[j]) })
	return a.flows
}

type analysis struct {
	f      *extract.File
	rules  *effects.Rules
	gates  *effects.Analyzer
	byQual map[string]*extract.Func
	sums   map[*extract.Func]*summary
	busy   map[*extract.Func]bool
	flows  []prove.Flow
	seen   map[string]bool
}

// path is a partial flow: a source path ends at a function's return, a
// sink path starts at a parameter and ends at a sink.
type path struct {
	kind  string
	what  string // the source or sink call, for messages
	steps []prove.Step
}

// summary is what a function does with data, as its callers see it.
type summary struct {
	ret        []path         // untrusted or model data returned
	paramSinks map[int][]path // parameter index -> paths to sinks
}

// fileResolver resolves calls to functions of this file only.
type fileResolver struct{ a *analysis }

func (r fileResolver) Callee(c *extract.Call) *extract.Func { return r.a.callee(c) }
func (r fileResolver) FuncOf(e *extract.Expr) *extract.Func {
	if e == nil || e.Kind != extract.ExprName {
		return nil
	}
	fn := r.a.byQual[e.Name]
	if fn != nil && fn.Class == "" {
		return fn
	}
	return nil
}

// Requalify: intra-file, calls on variables of other files stay as they are.
func (r fileResolver) Requalify(*extract.Call) (string, bool) { return "", false }

// RunsTool: the builtin prover reads one file and follows no registry.
func (r fileResolver) RunsTool(*extract.Call) bool { return false }

func (a *analysis) callee(c *extract.Call) *extract.Func {
	if c.Gate {
		return nil
	}
	switch c.HeadKind {
	case extract.HeadLocal:
		if fn := a.byQual[c.Qual]; fn != nil && fn.Class == "" {
			return fn
		}
		if fn := a.byQual[c.Qual+".__init__"]; fn != nil {
			return fn // a class of the file: its constructor
		}
	case extract.HeadSelf:
		return a.byQual[c.Qual]
	case extract.HeadUnknown:
		// A def further down the file: Python looks module names up when
		// the call runs, so the last def of the name is what runs.
		if bs := a.f.Scope.Bindings[c.Qual]; len(bs) > 0 && bs[len(bs)-1].Kind == extract.BindDef {
			return bs[len(bs)-1].Func
		}
	}
	return nil
}

func (a *analysis) summary(fn *extract.Func, depth int) *summary {
	if s := a.sums[fn]; s != nil {
		return s
	}
	if a.busy[fn] || depth > maxDepth {
		return &summary{} // recursion: the outer walk covers this body
	}
	a.busy[fn] = true
	defer delete(a.busy, fn)
	s := &summary{paramSinks: map[int][]path{}}
	for _, c := range fn.Calls {
		if gated, _ := a.gates.Gated(c); gated {
			continue // an approval stands before this call: it sanitises what reaches it
		}
		kind, name := a.rules.Classify(c)
		if sk := sinkKind(c, kind, name); sk != "" {
			sink := prove.Step{Loc: c.Loc, Role: prove.RoleSink, Message: sinkMessage(sk, name)}
			for _, arg := range sinkArgs(c, kind) {
				for _, o := range arg.Flow {
					a.reach(fn, s, o, path{kind: sk, what: name, steps: []prove.Step{sink}}, depth)
				}
			}
		}
		if callee := a.callee(c); callee != nil && callee != fn {
			cs := a.summary(callee, depth+1)
			for _, arg := range c.Args {
				idx := paramIndex(c, callee, arg)
				if idx < 0 {
					continue
				}
				for _, sp := range cs.paramSinks[idx] {
					into := prove.Step{Loc: arg.Loc, Role: prove.RoleCall,
						Message: fmt.Sprintf("passed to %s(...) as %s", callee.Name, callee.Params[idx].Name)}
					steps := append([]prove.Step{into}, sp.steps...)
					for _, o := range arg.Flow {
						a.reach(fn, s, o, path{kind: sp.kind, what: sp.what, steps: steps}, depth)
					}
				}
			}
		}
	}
	for _, o := range fn.Returns {
		if o.Call < 0 {
			continue
		}
		for _, src := range a.sources(fn, o.Call, depth) {
			steps := labelSource(concat(src.steps, a.chain(fn, o.Step, true)), src.kind, src.what)
			if len(s.ret) < maxPaths {
				s.ret = append(s.ret, path{kind: src.kind, what: src.what, steps: steps})
			}
			if src.kind == prove.SourceUntrusted {
				a.emit(src.kind, src.what, prove.SinkReturn, steps, fmt.Sprintf("%s reaches the return value of %s", src.what, fn.Name))
			}
		}
	}
	a.sums[fn] = s
	return s
}

// reach records that origin o of fn reaches a sink path.
func (a *analysis) reach(fn *extract.Func, s *summary, o extract.Origin, sink path, depth int) {
	chain := a.chain(fn, o.Step, false)
	if o.Param >= 0 && o.Param < len(fn.Params) {
		p := fn.Params[o.Param]
		if p.Injected {
			return
		}
		steps := concat(chain, sink.steps)
		if len(s.paramSinks[o.Param]) < maxPaths {
			s.paramSinks[o.Param] = append(s.paramSinks[o.Param], path{kind: sink.kind, what: sink.what, steps: steps})
		}
		if prove.IsAction(sink.kind) {
			a.emit(prove.SourceParam, "", sink.kind, steps, fmt.Sprintf("parameter %s of %s reaches %s", p.Name, fn.Name, sink.what))
		}
		return
	}
	if o.Call < 0 {
		return
	}
	for _, src := range a.sources(fn, o.Call, depth) {
		if src.kind == prove.SourceLLM && !prove.IsAction(sink.kind) {
			continue
		}
		a.emit(src.kind, src.what, sink.kind, concat(src.steps, chain, sink.steps), fmt.Sprintf("%s reaches %s", src.what, sink.what))
	}
}

// sources returns the source paths behind the result of call i of fn: the
// call itself when it reads untrusted data or a model's answer, or what a
// function of this file returns. The paths end just before the call site's
// own step, which the caller's chain starts with.
func (a *analysis) sources(fn *extract.Func, i, depth int) []path {
	if i < 0 || i >= len(fn.Calls) {
		return nil
	}
	c := fn.Calls[i]
	kind, name := a.rules.Classify(c)
	if sk := sourceKind(c, kind); sk != "" {
		return []path{{kind: sk, what: name}}
	}
	if callee := a.callee(c); callee != nil && callee != fn {
		return a.summary(callee, depth+1).ret
	}
	return nil
}

// chain converts extract's step chain into prove steps with readable
// messages. The first hop of a call origin is the call; of a parameter,
// the parameter.
func (a *analysis) chain(fn *extract.Func, st *extract.Step, toReturn bool) []prove.Step {
	hops := st.Steps()
	out := make([]prove.Step, 0, len(hops))
	for i, h := range hops {
		s := prove.Step{Loc: h.Loc, Role: prove.RoleStep}
		switch {
		case i == 0 && strings.HasPrefix(h.Msg, "parameter "):
			s.Role = prove.RoleSource
			s.Message = fmt.Sprintf("%s of %s", h.Msg, fn.Name)
		case i == 0:
			s.Role = prove.RoleSource
			s.Message = "value of " + h.Msg
		case h.Msg == "returned" || h.Msg == "yielded":
			s.Message = fmt.Sprintf("%s by %s", h.Msg, fn.Name)
		default:
			s.Message = "flows into " + h.Msg
		}
		out = append(out, s)
	}
	return out
}

// labelSource names the source on a path's first step (it is the call that
// read the data); steps is modified in place.
func labelSource(steps []prove.Step, kind, what string) []prove.Step {
	if len(steps) > 0 && kind != prove.SourceParam && strings.HasPrefix(steps[0].Message, "value of ") {
		steps[0].Message = sourceMessage(kind, strings.TrimPrefix(steps[0].Message, "value of "), what)
	}
	return steps
}

func concat(parts ...[]prove.Step) []prove.Step {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]prove.Step, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	// Only the very first step is the source; the ends of inner paths
	// (a callee's return, a call site) are steps of the whole.
	for i := range out {
		switch {
		case i == 0:
			out[i].Role = prove.RoleSource
		case out[i].Role == prove.RoleSource:
			out[i].Role = prove.RoleStep
		}
	}
	return out
}

func (a *analysis) emit(srcKind, srcWhat, sinkKind string, steps []prove.Step, msg string) {
	if len(steps) == 0 || len(a.flows) >= maxFlows {
		return
	}
	steps = labelSource(append([]prove.Step(nil), steps...), srcKind, srcWhat)
	first, last := &steps[0], &steps[len(steps)-1]
	first.Role, last.Role = prove.RoleSource, prove.RoleSink
	fl := prove.Flow{Tool: "builtin", RuleID: "acg/" + srcKind + "-to-" + sinkKind, Message: msg,
		SourceKind: srcKind, SinkKind: sinkKind, Steps: steps, Source: *first, Sink: *last}
	k := fl.RuleID + "|" + fl.Key()
	if a.seen[k] {
		return
	}
	a.seen[k] = true
	a.flows = append(a.flows, fl)
}

// paramIndex maps an argument of c onto a parameter of callee, or -1
// (splats and *args go nowhere we can name).
func paramIndex(c *extract.Call, callee *extract.Func, arg extract.Arg) int {
	offset := 0
	if len(callee.Params) > 0 && callee.Params[0].Injected && (callee.Params[0].Name == "self" || callee.Params[0].Name == "cls") {
		offset = 1
	}
	if arg.Kw != "" {
		for i, p := range callee.Params {
			if p.Name == arg.Kw {
				return i
			}
		}
		return -1
	}
	i := arg.Pos + offset
	if arg.Pos < 0 || i >= len(callee.Params) || strings.HasPrefix(callee.Params[i].Annotation, "*") {
		return -1
	}
	return i
}
