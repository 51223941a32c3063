package effects

import "github.com/acg-dev/acg/extract"

// Fixed graph steps (DESIGN.md, "Decided semantics"): a graph node runs
// because the graph always runs it, not because the model picked it, so
// what it does is an action of the agent only where model-produced data
// (its state) reaches the call's arguments. A node that deletes a fixed
// cache directory or runs a fixed `git pull` acts for the program, not for
// the model. What it reads still counts: reads are legs whoever asks.

// stateView is fn as a graph node sees it when the fields of its state
// that inputOnly names come only from the graph's input: the flows from
// those fields of its state parameter are removed from every call, so
// what they reach is not model-produced. The copy shares everything else
// with fn (scope, parameters, returns).
func stateView(fn *extract.Func, inputOnly func(string) bool) *extract.Func {
	state := -1
	for i, p := range fn.Params {
		if p.Name != "self" && p.Name != "cls" {
			state = i
			break
		}
	}
	if state < 0 {
		return fn
	}
	keep := func(fl extract.Flow) extract.Flow {
		var out extract.Flow
		for _, o := range fl {
			if o.Param == state && o.Key != "" && inputOnly(o.Key) {
				continue
			}
			out = append(out, o)
		}
		return out
	}
	v := *fn
	v.Calls = make([]*extract.Call, len(fn.Calls))
	for i, c := range fn.Calls {
		cc := *c
		cc.Func = &v
		cc.Recv = keep(c.Recv)
		cc.Args = make([]extract.Arg, len(c.Args))
		for j, arg := range c.Args {
			arg.Flow = keep(arg.Flow)
			cc.Args[j] = arg
		}
		v.Calls[i] = &cc
	}
	return &v
}

// actionLabels are the labels of outward actions.
var actionLabels = []Label{NetworkEgress, WritesState, ExecutesCode, Irreversible}

// fixedStep drops the action evidence that no state data reaches; a label
// left without evidence is absent, decided by the code that was read.
func (e *Effects) fixedStep() {
	dropped := false
	for _, l := range actionLabels {
		r := e.Labels[l]
		if r == nil || !r.Value {
			continue
		}
		var kept []Evidence
		for _, ev := range r.Evidence {
			if ev.ModelData || ev.Call == nil {
				kept = append(kept, ev)
			}
		}
		if len(kept) == len(r.Evidence) {
			continue
		}
		dropped = true
		r.Evidence = kept
		if len(kept) == 0 {
			r.Value, r.DecidedBy = false, ByRules
		}
	}
	if !dropped {
		return
	}
	// Roles come from the evidence that is left.
	have := map[string]bool{}
	for _, r := range e.Labels {
		if !r.Value {
			continue
		}
		for _, ev := range r.Evidence {
			if ev.Role != "" {
				have[ev.Role] = true
			}
		}
	}
	var roles []string
	for _, r := range e.Roles {
		if have[r] {
			roles = append(roles, r)
		} else {
			delete(e.roleBy, r)
		}
	}
	e.Roles = roles
}
