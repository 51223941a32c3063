package effects

import "github.com/acg-dev/acg/extract"

// Override returns a copy of base where the user's declaration replaces
// the labels it names (decided by config, with the declaration as the
// evidence). When complete, every label it does not name is declared
// absent. base is left untouched: analyses share it.
func Override(base *Effects, set map[Label]bool, complete bool, reason string, at extract.Loc) *Effects {
	out := newEffects()
	if base != nil {
		for l, r := range base.Labels {
			c := *r
			c.Evidence = append([]Evidence(nil), r.Evidence...)
			out.Labels[l] = &c
		}
		out.Roles = append([]string(nil), base.Roles...)
	}
	for _, l := range Labels {
		v, named := set[l]
		if !named && !complete {
			continue
		}
		out.Labels[l] = &Result{Value: v, DecidedBy: ByConfig,
			Evidence: []Evidence{{Label: l, Kind: "config", Loc: at, Detail: "declared in " + at.File + ": " + reason}}}
	}
	return out
}
