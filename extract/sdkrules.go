package extract

// SDKPermissionRules reads a list of permission rules as written ("Read",
// "Bash(npm test:*)", "mcp__github__create_issue") of a Claude Agent SDK
// session's options, Python or TypeScript, through splats of lists fixed
// in the source; ok is false when an entry cannot be read.
func SDKPermissionRules(v *Expr, list string) (out []*PermissionRule, ok bool) {
	ok = true
	var walk func(x *Expr, depth int)
	walk = func(x *Expr, depth int) {
		d := Deref(x)
		if d == nil || depth > 8 {
			ok = false
			return
		}
		switch d.Kind {
		case ExprList:
			for _, el := range d.Elems {
				walk(el, depth+1)
			}
		case ExprSplat:
			if len(d.Elems) == 0 {
				ok = false
				return
			}
			walk(d.Elems[0], depth+1)
		default:
			s, isStr := d.StrValue()
			if !isStr {
				ok = false
				return
			}
			tool, spec := ParseRule(s)
			out = append(out, &PermissionRule{List: list, Rule: s, Tool: tool, Spec: spec, Loc: x.Loc})
		}
	}
	walk(v, 0)
	return out, ok
}
