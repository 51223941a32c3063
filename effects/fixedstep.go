package effects

// Fixed graph steps (DESIGN.md, "Decided semantics"): a graph node runs
// because the graph always runs it, not because the model picked it, so
// what it does is an action of the agent only where model-produced data
// (its state) reaches the call's arguments. A node that deletes a fixed
// cache directory or runs a fixed `git pull` acts for the program, not for
// the model. What it reads still counts: reads are legs whoever asks.

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
