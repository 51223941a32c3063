package gate

import (
	"fmt"
	"path"
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/typescript"
)

// tsPath reports a file of the TypeScript front end (a .d.ts has no code).
func tsPath(p string) bool {
	ext := path.Ext(p)
	for _, e := range typescript.Exts {
		if ext == e {
			return !typescript.Declaration(p)
		}
	}
	return false
}

// tsFlag sets `key: true` in the options object of a TypeScript tool's
// constructor call (tool({ ... })): an existing key's value is replaced,
// else the key goes first in the literal, on its own line when the
// literal spans lines. A key already true is a gate (ErrGated), so the
// fix is idempotent.
func (p *planner) tsFlag(t Tool, key string) error {
	s, tool, err := p.tool(t)
	if err != nil {
		return err
	}
	if tool.Ctor == nil || tool.Ctor.Kind != extract.ExprCall {
		return fmt.Errorf("%w: %s has no constructor call to change", ErrNoGate, t.Name)
	}
	opts := tool.Ctor.Arg(0, "")
	if opts == nil || opts.Kind != extract.ExprDict {
		return fmt.Errorf("%w: the options of %s are not an object literal", ErrNoGate, t.Name)
	}
	for i, k := range opts.Keys {
		if k == nil || k.Kind != extract.ExprStr || k.Str != key || i >= len(opts.Elems) {
			continue
		}
		v := opts.Elems[i]
		if v != nil && v.Kind == extract.ExprBool && v.Bool {
			return fmt.Errorf("%s: %s %w", t.Name, key, ErrGated)
		}
		return p.change(s, []edit{{v.Loc.Start.Byte, v.Loc.End.Byte, "true"}})
	}
	open := opts.Loc.Start.Byte // the `{`
	if open >= len(s.src) || s.src[open] != '{' {
		return fmt.Errorf("%w: cannot place %s in the options of %s", ErrNoGate, key, t.Name)
	}
	if len(opts.Keys) == 0 {
		return p.change(s, []edit{{open + 1, opts.Loc.End.Byte - 1, " " + key + ": true "}})
	}
	first := opts.Keys[0].Loc.Start.Byte
	if strings.Contains(string(s.src[open:first]), "\n") {
		// Multi-line: a line of its own with the first key's indentation.
		ls := lineStart(s.src, first)
		ind := string(s.src[ls:first])
		return p.change(s, []edit{{ls, ls, ind + key + ": true,\n"}})
	}
	return p.change(s, []edit{{first, first, key + ": true, "}})
}

// toolApprovalObject is the object literal of a Vercel AI call's
// toolApproval option, or nil.
func toolApprovalObject(a *extract.Agent) *extract.Expr {
	if a.Call == nil {
		return nil
	}
	opts := a.Call.Arg(0, "")
	if opts == nil || opts.Kind != extract.ExprDict {
		return nil
	}
	for i, k := range opts.Keys {
		if k != nil && k.Kind == extract.ExprStr && k.Str == "toolApproval" && i < len(opts.Elems) {
			if v := opts.Elems[i]; v != nil && v.Kind == extract.ExprDict && !v.Spread {
				return v
			}
		}
	}
	return nil
}

// toolApprovalEntry adds `key: "user-approval"` to the agent call's
// toolApproval object for the tool (its key in the call's tools object),
// or sets an existing entry's value to it.
func (p *planner) toolApprovalEntry(as *source, a *extract.Agent, t Tool) error {
	ta := toolApprovalObject(a)
	key := t.Name
	if _, tool, err := p.tool(t); err == nil && tool.Symbol != "" {
		// tools: { send_email: sendEmail }: the model's name is the key.
		if tools := a.Call.Arg(0, ""); tools != nil {
			for i, k := range tools.Keys {
				if k != nil && k.Str == "tools" && i < len(tools.Elems) && tools.Elems[i] != nil {
					d := tools.Elems[i]
					for j, tk := range d.Keys {
						if j < len(d.Elems) && d.Elems[j] != nil && d.Elems[j].Kind == extract.ExprName && d.Elems[j].Name == tool.Symbol && tk.Kind == extract.ExprStr {
							key = tk.Str
						}
					}
				}
			}
		}
	}
	for i, k := range ta.Keys {
		if k == nil || k.Kind != extract.ExprStr || k.Str != key || i >= len(ta.Elems) {
			continue
		}
		v := ta.Elems[i]
		if s, ok := v.StrValue(); ok && s == "user-approval" {
			return fmt.Errorf("%s: toolApproval %w", t.Name, ErrGated)
		}
		return p.change(as, []edit{{v.Loc.Start.Byte, v.Loc.End.Byte, `"user-approval"`}})
	}
	entry := key
	if !identifier(key) {
		entry = fmt.Sprintf("%q", key)
	}
	entry += `: "user-approval"`
	open := ta.Loc.Start.Byte
	if len(ta.Keys) == 0 {
		return p.change(as, []edit{{open + 1, ta.Loc.End.Byte - 1, " " + entry + " "}})
	}
	first := ta.Keys[0].Loc.Start.Byte
	return p.change(as, []edit{{first, first, entry + ", "}})
}

func identifier(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
