package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// Approvals a tool asks for in its own body, before it acts: a first
// top-level `if not <ctx>.<flag>:` (or `if not v:` with `v = <ctx>.<flag>`
// earlier at top level) whose block defers the call to the user. The
// framework re-runs the tool with the flag set once the user approves
// (PydanticAI: raise ApprovalRequired / ctx.tool_call_approved; Google ADK:
// tool_context.request_confirmation(...) and return /
// tool_context.tool_confirmation). Any other condition beside the flag
// (`if amount > 100 and not ...`) leaves some calls unasked, so that gate is
// recorded as conditional, which gates nothing (fail closed).

// bodyGate is one framework's way of deferring from a tool body.
type bodyGate struct {
	// module is the framework's package: only files importing it are read
	// for its gate (a `tool_confirmation` attribute elsewhere means nothing).
	framework                  extract.Framework
	module, flag, kind, detail string
	// defers reports whether a block defers the call (its statements, in
	// the function's scope).
	defers func(sc *extract.Scope, block *syntax.Node, src []byte) bool
}

var bodyGates []bodyGate

func init() { treeAdapters = append(treeAdapters, bodyApprovals) }

func bodyApprovals(f *extract.File, root *syntax.Node, src []byte) {
	var gates []bodyGate
	for _, g := range bodyGates {
		for _, im := range f.Imports {
			if im.Level == 0 && (im.Module == g.module || strings.HasPrefix(im.Module, g.module+".")) {
				gates = append(gates, g)
				break
			}
		}
	}
	if len(gates) == 0 {
		return
	}
	// Every function may be a tool: plain functions in a tools list become
	// tools only when the list is resolved, and take SelfApprovals then.
	for _, fn := range f.Funcs {
		for _, g := range gates {
			if ap := g.find(f, fn, root, src); ap != nil {
				fn.SelfApprovals = append(fn.SelfApprovals, ap)
			}
		}
	}
	for _, t := range f.Tools {
		if t.Func != nil {
			t.Approvals = append(t.Approvals, t.Func.SelfApprovals...)
		}
	}
}

func (g bodyGate) find(f *extract.File, fn *extract.Func, root *syntax.Node, src []byte) *extract.Approval {
	fnNode := descendantAt(root, f, fn.Loc)
	if fnNode == nil || fnNode.Type() != "function_definition" {
		return nil
	}
	body := fnNode.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	vars := map[string]bool{} // v = ctx.<flag>
	for _, st := range body.NamedChildren() {
		if v, ok := g.flagAssign(st, src); ok {
			vars[v] = true
			continue
		}
		if st.Type() != "if_statement" || !g.defers(fn.Scope, st.ChildByFieldName("consequence"), src) {
			continue
		}
		cond := strings.Join(strings.Fields(st.ChildByFieldName("condition").Content(src)), " ")
		cond = strings.TrimSuffix(strings.TrimPrefix(cond, "("), ")")
		loc := extract.Loc{File: f.Path, Start: extract.PointAt(src, f.Lines, int(st.StartByte())), End: extract.PointAt(src, f.Lines, int(st.EndByte()))}
		ap := &extract.Approval{Kind: g.kind, Loc: loc, Detail: g.detail}
		if g.notFlag(cond, vars) {
			ap.All = true
		} else {
			ap.Detail = "conditional"
		}
		return ap
	}
	return nil
}

// flagAssign: `v = <name>.<flag>` as a top-level statement.
func (g bodyGate) flagAssign(st *syntax.Node, src []byte) (string, bool) {
	if st.Type() != "expression_statement" {
		return "", false
	}
	lhs, rhs, ok := strings.Cut(st.Content(src), "=")
	if !ok || strings.ContainsAny(rhs, "=") {
		return "", false
	}
	lhs, rhs = strings.TrimSpace(lhs), strings.TrimSpace(rhs)
	recv, attr, ok := cutLastDot(rhs)
	if !ok || attr != g.flag || !isIdent(recv) || !isIdent(lhs) {
		return "", false
	}
	return lhs, true
}

// notFlag: the condition is exactly `not <name>.<flag>` or `not v` for a
// variable holding it.
func (g bodyGate) notFlag(cond string, vars map[string]bool) bool {
	rest, ok := strings.CutPrefix(cond, "not ")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	if vars[rest] {
		return true
	}
	recv, attr, ok := cutLastDot(rest)
	return ok && attr == g.flag && isIdent(recv)
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
