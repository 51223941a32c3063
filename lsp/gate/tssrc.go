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
