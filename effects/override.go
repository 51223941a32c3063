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
	}
	for _, l := range Labels {
		v, named := set[l]
		if !named && !complete {
			continue
		}
		out.Labels[l] = &Result{Value: v, DecidedBy: ByConfig,
			Evidence: []Evidence{{Label: l, Kind: "config", Loc: at, Detail: "declared in " + at.File + ": " + reason}}}
	}
	keepRoles(out, base, complete)
	return out
}

// keepRoles carries over the chain roles the declaration leaves standing:
// a role found with evidence survives while a label keeps that evidence;
// a role from the catalog or an alias survives unless the declaration is
// complete (the user said exactly what the tool does).
func keepRoles(out, base *Effects, complete bool) {
	if base == nil {
		return
	}
	for _, r := range base.Roles {
		withEvidence, standing := false, false
		for _, l := range Labels {
			for _, ev := range base.Get(l).Evidence {
				if ev.Role != r {
					continue
				}
				withEvidence = true
				if res := out.Labels[l]; res.Value && res.DecidedBy != ByConfig {
					standing = true
				}
			}
		}
		if standing || (!withEvidence && !complete) {
			out.addRoleBy(r, base.RoleDecider(r))
		}
	}
}
