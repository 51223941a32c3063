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
		return p.change(s, []edit{{int(v.Loc.Start.Byte), int(v.Loc.End.Byte), "true"}})
	}
	open := opts.Loc.Start.Byte // the `{`
	if int(open) >= len(s.src) || s.src[open] != '{' {
		return fmt.Errorf("%w: cannot place %s in the options of %s", ErrNoGate, key, t.Name)
	}
	if len(opts.Keys) == 0 {
		return p.change(s, []edit{{int(open + 1), int(opts.Loc.End.Byte - 1), " " + key + ": true "}})
	}
	first := opts.Keys[0].Loc.Start.Byte
	if strings.Contains(string(s.src[open:first]), "\n") {
		// Multi-line: a line of its own with the first key's indentation.
		ls := lineStart(s.src, int(first))
		ind := string(s.src[ls:first])
		return p.change(s, []edit{{ls, ls, ind + key + ": true,\n"}})
	}
	return p.change(s, []edit{{int(first), int(first), key + ": true, "}})
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
		return p.change(as, []edit{{int(v.Loc.Start.Byte), int(v.Loc.End.Byte), `"user-approval"`}})
	}
	entry := key
	if !identifier(key) {
		entry = fmt.Sprintf("%q", key)
	}
	entry += `: "user-approval"`
	open := ta.Loc.Start.Byte
	if len(ta.Keys) == 0 {
		return p.change(as, []edit{{int(open + 1), int(ta.Loc.End.Byte - 1), " " + entry + " "}})
	}
	first := ta.Keys[0].Loc.Start.Byte
	return p.change(as, []edit{{int(first), int(first), entry + ", "}})
}

func identifier(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// tsInterrupt puts interrupt() from @langchain/langgraph first in a
// LangGraph.js tool's function, with an early return unless the reviewer
// approves (the resume value is the decision), and imports it. The body
// must be a block: an expression-bodied arrow has no first statement.
func (p *planner) tsInterrupt(t Tool) error {
	s, fn, err := p.funcOf(t)
	if err != nil {
		return err
	}
	if len(fn.Gates) > 0 {
		return fmt.Errorf("%s at line %d does not run before every action; %w that a second one would duplicate", fn.Gates[0].Qual, fn.Gates[0].Loc.Start.Line, ErrGated)
	}
	at := fn.BodyInsert.Byte
	if at <= 0 || int(at) > len(s.src) || s.src[at-1] != '{' {
		return fmt.Errorf("%w: the function of %s has no block body; write it as { ... } first", ErrNoGate, t.Name)
	}
	decision := "decision"
	for _, n := range []string{"decision", "approval", "reviewDecision"} {
		decision = n
		if fn.Scope == nil || len(fn.Scope.Bindings[n]) == 0 {
			break
		}
	}
	// The indentation of the body: that of its first line, else the
	// function's line plus two spaces.
	open := lineStart(s.src, int(at-1))
	outer := leadingSpace(s.src[open:])
	ind := outer + "  "
	if nl := strings.IndexByte(string(s.src[at:]), '\n'); nl >= 0 {
		next := s.src[int(at)+nl+1:]
		if sp := leadingSpace(next); len(next) > len(sp) && next[len(sp)] != '}' && next[len(sp)] != '\n' {
			ind = sp
		}
	}
	name, imp := tsImport(s, "@langchain/langgraph", "interrupt")
	gate := fmt.Sprintf("\n%sconst %s = %s<{ action: string }, boolean>({ action: %q });\n%sif (!%s) {\n%s  return %q;\n%s}",
		ind, decision, name, t.Name, ind, decision, ind, "Rejected by reviewer", ind)
	return p.change(s, append(imp, edit{int(at), int(at), gate}))
}

func leadingSpace(b []byte) string {
	n := 0
	for n < len(b) && (b[n] == ' ' || b[n] == '\t') {
		n++
	}
	return string(b[:n])
}

// tsImport makes name of module usable in a TypeScript file: an existing
// named import of it, else one added to an `import { ... } from module`
// line, else a new import after the file's last import statement.
func tsImport(s *source, module, name string) (string, []edit) {
	for _, b := range s.facts.Scope.Bindings[name] {
		if b.Kind == extract.BindImport && b.Imp != nil && b.Imp.Qualified() == module+"."+name {
			return name, nil
		}
	}
	src := string(s.src)
	lines := strings.SplitAfter(src, "\n")
	off, lastImport := 0, -1
	for _, ln := range lines {
		trim := strings.TrimSpace(ln)
		if strings.HasPrefix(trim, "import ") || (strings.HasPrefix(trim, "} from ") && lastImport >= 0) {
			if strings.HasPrefix(trim, "import {") && strings.HasSuffix(trim, "} from \""+module+"\";") {
				// Add it to the braces, after the last name there.
				close := off + strings.Index(ln, "}")
				at := close
				for at > off && (src[at-1] == ' ' || src[at-1] == '\t') {
					at--
				}
				return name, []edit{{at, at, ", " + name}}
			}
			lastImport = off + len(ln)
		}
		off += len(ln)
	}
	line := fmt.Sprintf("import { %s } from %q;\n", name, module)
	if lastImport < 0 {
		return name, []edit{{0, 0, line}}
	}
	return name, []edit{{lastImport, lastImport, line}}
}

// tsCheckpointer gives a LangGraph.js agent the checkpointer interrupt()
// needs to pause and resume: checkpointer: new MemorySaver() in
// createReactAgent's options or in compile()'s. An agent that has one, or
// whose options are not an object literal, is left as it is.
func (p *planner) tsCheckpointer() error {
	s, a, err := p.agent()
	if err != nil {
		return err
	}
	if a.Checkpoint || a.Call == nil || a.Call.Kind != extract.ExprCall {
		return nil
	}
	saver, imp := tsImport(s, "@langchain/langgraph", "MemorySaver")
	entry := "checkpointer: new " + saver + "()"
	opts := a.Call.Arg(0, "")
	switch {
	case opts == nil && len(a.Call.Args) == 0 && a.Ctor == "StateGraph":
		// compile(): the call's parentheses close the source of the call.
		end := a.Call.Loc.End.Byte
		if end < 2 || string(s.src[end-2:end]) != "()" {
			return nil
		}
		return p.change(s, append(imp, edit{int(end - 1), int(end - 1), "{ " + entry + " }"}))
	case opts != nil && opts.Kind == extract.ExprDict && len(opts.Keys) > 0:
		last := opts.Elems[len(opts.Elems)-1]
		at := last.Loc.End.Byte
		rest := string(s.src[at:opts.Loc.End.Byte])
		if strings.Contains(rest, "\n") {
			ind := leadingSpace(s.src[lineStart(s.src, int(opts.Keys[len(opts.Keys)-1].Loc.Start.Byte)):])
			comma := ""
			if !strings.HasPrefix(strings.TrimLeft(rest, " \t"), ",") {
				comma = ","
			}
			nl := int(at) + strings.Index(rest, "\n")
			return p.change(s, append(imp, edit{int(at), int(at), comma}, edit{nl + 1, nl + 1, ind + entry + ",\n"}))
		}
		return p.change(s, append(imp, edit{int(at), int(at), ", " + entry}))
	}
	return nil
}
