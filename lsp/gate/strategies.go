package gate

import (
	"fmt"
	"strings"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/python"
)

// interruptInBody puts interrupt() first in the tool's body, carrying the
// tool name and arguments, with an early return when the reviewer does not
// accept (frameworks.md §1.7, shape 3).
func (p *planner) interruptInBody(t Tool) error {
	s, fn, err := p.funcOf(t)
	if err != nil {
		return err
	}
	if len(fn.Gates) > 0 {
		return fmt.Errorf("%s at line %d does not run before every action; %w that a second one would duplicate", fn.Gates[0].Qual, fn.Gates[0].Loc.Start.Line, ErrGated)
	}
	if fn.BodyIndent == "" {
		return fmt.Errorf("the body of %s is on its def line; put it on its own lines first", t.Name)
	}
	interrupt, imp := s.importName("langgraph.types", "interrupt")
	q := s.quote()
	var args []string
	for _, prm := range fn.Params {
		if prm.Injected {
			continue
		}
		text := string(s.src[prm.Loc.Start.Byte:prm.Loc.End.Byte])
		switch {
		case strings.HasPrefix(text, "**"):
			args = append(args, "**"+prm.Name)
		default:
			args = append(args, str(q, prm.Name)+": "+prm.Name)
		}
	}
	decision := "decision"
	for _, n := range []string{"decision", "approval", "review_decision"} {
		decision = n
		if len(fn.Scope.Bindings[n]) == 0 {
			break
		}
	}
	ind, unit := fn.BodyIndent, indentUnit(s, fn)
	gate := fmt.Sprintf("%s%s = %s({%s: %s, %s: {%s}})\n%sif %s.get(%s) != %s:\n%s%sreturn %s\n",
		ind, decision, interrupt, str(q, "action"), str(q, t.Name), str(q, "args"), strings.Join(args, ", "),
		ind, decision, str(q, "type"), str(q, "accept"),
		ind, unit, str(q, "Rejected by reviewer"))
	at := fn.BodyInsert.Byte
	if int(at) == len(s.src) && len(s.src) > 0 && s.src[len(s.src)-1] != '\n' {
		gate = "\n" + gate
	}
	return p.change(s, append(imp, edit{int(at), int(at), gate}))
}

// crewHook adds, at the end of the crew's file, a CrewAI pre-tool-call
// hook that asks a human before the tool runs and blocks the call unless
// they answer yes (crewai.hooks before_tool_call; the hook sees the tool by
// the name the agent calls it).
func (p *planner) crewHook(s *source, t Tool) error {
	if !strings.HasSuffix(s.path, ".py") {
		return fmt.Errorf("%w for a crew declared in %s: add a before_tool_call hook in its Python code", ErrNoGate, s.path)
	}
	name := "ask_before_" + python.SanitizeToolName(t.Name)
	if s.bound(name) {
		return fmt.Errorf("%s %w", name, ErrGated)
	}
	deco, imp := s.importName("crewai.hooks", "before_tool_call")
	q := s.quote()
	hook := fmt.Sprintf("\n\n\n@%s\ndef %s(context):\n"+
		"    %s\n"+
		"    if context.tool_name == %s:\n"+
		"        answer = context.request_human_input(prompt=%s)\n"+
		"        if answer.strip().lower() not in (%s, %s):\n"+
		"            return False\n"+
		"    return None\n",
		deco, name, strings.Repeat(string(q), 3)+"Ask a human before "+t.Name+" runs; block it unless they answer yes."+strings.Repeat(string(q), 3),
		str(q, t.Name), str(q, "Allow "+t.Name+"? [y/N]"), str(q, "y"), str(q, "yes"))
	end := len(s.src)
	trimmed := strings.TrimRight(string(s.src), "\n")
	start := len(trimmed) // replace the trailing newlines: exactly two blank lines before the hook
	if start == 0 {
		hook = strings.TrimLeft(hook, "\n")
	}
	return p.change(s, append(imp, edit{start, end, hook}))
}

// needsApproval sets needs_approval=True on an OpenAI Agents SDK
// @function_tool decorator (frameworks.md §2.3).
func (p *planner) needsApproval(t Tool) error {
	s, tool, err := p.tool(t)
	if err != nil {
		return err
	}
	d := tool.Decorator
	if d == nil {
		return fmt.Errorf("%w: %s has no @function_tool decorator to change", ErrNoGate, t.Name)
	}
	if d.Kind != extract.ExprCall {
		end := d.Loc.End.Byte
		return p.change(s, []edit{{int(end), int(end), "(needs_approval=True)"}})
	}
	return p.kwargTrue(s, d, "needs_approval")
}

// requiresApproval sets requires_approval=True on a PydanticAI tool: its
// @agent.tool / @toolset.tool decorator, or the Tool(...) call that wraps it.
func (p *planner) requiresApproval(t Tool) error {
	s, tool, err := p.tool(t)
	if err != nil {
		return err
	}
	d := tool.Decorator
	if d == nil {
		d = tool.Ctor
	}
	if d == nil {
		return fmt.Errorf("%w: %s has no @agent.tool decorator or Tool(...) call to change", ErrNoGate, t.Name)
	}
	if d.Kind != extract.ExprCall {
		end := d.Loc.End.Byte
		return p.change(s, []edit{{int(end), int(end), "(requires_approval=True)"}})
	}
	return p.kwargTrue(s, d, "requires_approval")
}

// requireConfirmation makes a Google ADK tool ask first: an existing
// FunctionTool(...) gets require_confirmation=True; a plain function in the
// agent's tools list is wrapped where the list names it,
// FunctionTool(f, require_confirmation=True), importing FunctionTool.
func (p *planner) requireConfirmation(as *source, a *extract.Agent, t Tool) error {
	// A plain function is a tool only where a list names it: it has no
	// tool facts of its own, only its symbol (the id's suffix).
	symbol := t.ID[strings.LastIndexByte(t.ID, '#')+1:]
	if s, tool, err := p.tool(t); err == nil {
		if tool.Ctor != nil && tool.Ctor.Kind == extract.ExprCall {
			return p.kwargTrue(s, tool.Ctor, "require_confirmation")
		}
		symbol = tool.Symbol
	}
	for _, ref := range a.Tools {
		list := extract.Deref(ref.Expr)
		if list == nil || list.Kind != extract.ExprList {
			continue
		}
		for _, el := range list.Elems {
			if el.Kind != extract.ExprName || el.Name != symbol {
				continue
			}
			ft, imp := as.importName("google.adk.tools", "FunctionTool")
			wrap := fmt.Sprintf("%s(%s, require_confirmation=True)", ft, el.Name)
			return p.change(as, append([]edit{{int(el.Loc.Start.Byte), int(el.Loc.End.Byte), wrap}}, imp...))
		}
	}
	return fmt.Errorf("%w: %s is not named in a tools=[...] list of %s that acg can edit", ErrNoGate, t.Name, a.Name)
}

// approvalMode sets approval_mode="always_require" on a Microsoft Agent
// Framework tool: its @tool decorator, its tool(...) / FunctionTool(...)
// call, or the as_tool(...) call of an agent used as a tool.
func (p *planner) approvalMode(t Tool) error {
	s, tool, err := p.tool(t)
	if err != nil {
		return err
	}
	d := tool.Decorator
	if d == nil {
		d = tool.Ctor
	}
	q := s.quote()
	val := str(q, "always_require")
	if d == nil {
		return fmt.Errorf("%w: %s has no @tool decorator or tool(...) call to change", ErrNoGate, t.Name)
	}
	if d.Kind != extract.ExprCall {
		end := d.Loc.End.Byte
		return p.change(s, []edit{{int(end), int(end), "(approval_mode=" + val + ")"}})
	}
	if v := d.Kwarg("approval_mode"); v != nil {
		if mode, ok := extract.Deref(v).StrValue(); ok && mode == "always_require" {
			return fmt.Errorf("approval_mode is always_require; %w", ErrGated)
		}
		return p.change(s, []edit{{int(v.Loc.Start.Byte), int(v.Loc.End.Byte), val}})
	}
	return p.addKwarg(s, d, "approval_mode="+val)
}

// asTool sets needs_approval=True on agent.as_tool(...).
func (p *planner) asTool(t Tool) error {
	s, tool, err := p.tool(t)
	if err != nil {
		return err
	}
	if tool.Ctor == nil {
		return fmt.Errorf("%w: the as_tool call of %s is not in %s", ErrNoGate, t.Name, t.Path)
	}
	return p.kwargTrue(s, tool.Ctor, "needs_approval")
}

// approvalKwarg is the constructor argument of a prebuilt tool that makes
// it ask first (catalog approval_kwarg), when the tool can take it.
func (p *planner) approvalKwarg(t Tool) string {
	if t.Class == "" || !t.Ctor.Valid() {
		return ""
	}
	ct := effects.DefaultCatalog().Tool(t.Class)
	if ct == nil {
		return ""
	}
	return ct.ApprovalKwarg
}

// prebuilt sets the catalog's approval argument on a prebuilt tool's
// constructor, e.g. ShellTool(needs_approval=True).
func (p *planner) prebuilt(t Tool) error {
	s, err := p.source(t.Path)
	if err != nil {
		return err
	}
	at := p.current(t.Path, int(t.Ctor.Start.Byte))
	for _, fn := range s.facts.Funcs {
		for _, c := range fn.Calls {
			if c.Expr != nil && int(c.Expr.Loc.Start.Byte) == at && c.Expr.Kind == extract.ExprCall {
				if c.Expr.Kwarg("environment") != nil && extract.QualIs(t.Class, "ShellTool", "agents") {
					return fmt.Errorf("%w: a hosted ShellTool (environment=...) rejects needs_approval", ErrNoGate)
				}
				return p.kwargTrue(s, c.Expr, p.approvalKwarg(t))
			}
		}
	}
	return fmt.Errorf("the constructor of %s is no longer at %s:%d", t.Name, t.Path, t.Ctor.Start.Line)
}

// kwargTrue makes a call's keyword argument True: added when missing,
// replaced when a literal False or None, refused when something else (a
// callable that decides per call is a gate acg will not overrule).
func (p *planner) kwargTrue(s *source, call *extract.Expr, kw string) error {
	if v := call.Kwarg(kw); v != nil {
		if on, known := v.Truthy(); known && !on {
			return p.change(s, []edit{{int(v.Loc.Start.Byte), int(v.Loc.End.Byte), "True"}})
		}
		return fmt.Errorf("%s=%s is set; %w acg would replace", kw, s.src[v.Loc.Start.Byte:v.Loc.End.Byte], ErrGated)
	}
	return p.addKwarg(s, call, kw+"=True")
}

// addKwarg appends a keyword argument to a call.
func (p *planner) addKwarg(s *source, call *extract.Expr, kwarg string) error {
	edits, err := kwargEdits(s, call, kwarg)
	if err != nil {
		return err
	}
	return p.change(s, edits)
}

func kwargEdits(s *source, call *extract.Expr, kwarg string) ([]edit, error) {
	n := s.node(call.Loc, "call")
	if n == nil {
		return nil, fmt.Errorf("cannot find the call at %s:%d", s.path, call.Loc.Start.Line)
	}
	args := n.ChildByFieldName("arguments")
	if args == nil || args.Type() != "argument_list" {
		return nil, fmt.Errorf("the call at %s:%d has no argument list to extend", s.path, call.Loc.Start.Line)
	}
	return insertItem(s.src, args, kwarg)
}

// itemEdits appends an item to the list or dict literal at l.
func itemEdits(s *source, l extract.Loc, typ, item string) ([]edit, error) {
	n := s.node(l, typ)
	if n == nil {
		return nil, fmt.Errorf("cannot find the %s at %s:%d", typ, s.path, l.Start.Line)
	}
	return insertItem(s.src, n, item)
}

// middleware gates a tool of a LangChain create_agent with
// HumanInTheLoopMiddleware(interrupt_on={name: {...}}), merged into the
// middleware list and interrupt_on dict that are already there
// (frameworks.md §1.7, shape 1).
func (p *planner) middleware(s *source, a *extract.Agent, t Tool) error {
	q := s.quote()
	value := fmt.Sprintf("{%s: [%s, %s, %s]}", str(q, "allowed_decisions"), str(q, "approve"), str(q, "edit"), str(q, "reject"))
	entry := str(q, t.Name) + ": " + value
	mw := a.Call.Kwarg("middleware")
	if mw == nil {
		hitl, imp := s.importName("langchain.agents.middleware", "HumanInTheLoopMiddleware")
		edits, err := kwargEdits(s, a.Call, fmt.Sprintf("middleware=[%s(interrupt_on={%s})]", hitl, entry))
		if err != nil {
			return err
		}
		return p.change(s, append(edits, imp...))
	}
	list := extract.Deref(mw)
	if list == nil || list.Kind != extract.ExprList {
		return fmt.Errorf("%w: the middleware of %s is computed, not a list acg can extend", ErrNoGate, a.Name)
	}
	for _, m := range list.Elems {
		m = extract.Deref(m)
		if m == nil || m.Kind != extract.ExprCall || !extract.QualIs(extract.QualOf(m), "HumanInTheLoopMiddleware", "langchain") {
			continue
		}
		on := extract.Deref(m.Arg(0, "interrupt_on"))
		if on == nil || on.Kind != extract.ExprDict {
			return fmt.Errorf("%w: the interrupt_on of %s's HumanInTheLoopMiddleware is not a dict acg can extend", ErrNoGate, a.Name)
		}
		for i, k := range on.Keys {
			if name, ok := k.StrValue(); ok && name == t.Name {
				v := on.Elems[i]
				if val, known := extract.Deref(v).Truthy(); known && !val {
					return p.change(s, []edit{{int(v.Loc.Start.Byte), int(v.Loc.End.Byte), value}})
				}
				return fmt.Errorf("interrupt_on names %s; %w", t.Name, ErrGated)
			}
		}
		edits, err := itemEdits(s, on.Loc, "dictionary", entry)
		if err != nil {
			return err
		}
		return p.change(s, edits)
	}
	hitl, imp := s.importName("langchain.agents.middleware", "HumanInTheLoopMiddleware")
	edits, err := itemEdits(s, list.Loc, "list", fmt.Sprintf("%s(interrupt_on={%s})", hitl, entry))
	if err != nil {
		return err
	}
	return p.change(s, append(edits, imp...))
}

// interruptBefore pauses the agent's graph before the node that runs the
// tool, for tools whose code acg cannot edit (frameworks.md §1.7, shapes 2
// and 5). In create_react_agent that node runs every tool.
func (p *planner) interruptBefore(s *source, a *extract.Agent, t Tool) error {
	node := t.Node
	if node == "" {
		node = "tools"
	}
	q := s.quote()
	v := a.Call.Kwarg("interrupt_before")
	if v == nil {
		return p.addKwarg(s, a.Call, fmt.Sprintf("interrupt_before=[%s]", str(q, node)))
	}
	list := extract.Deref(v)
	if list == nil || list.Kind != extract.ExprList {
		return fmt.Errorf("%w: interrupt_before of %s is not a list acg can extend", ErrNoGate, a.Name)
	}
	for _, n := range extract.Strings(list) {
		if n == node || n == "*" {
			return fmt.Errorf("interrupt_before names %s; %w", node, ErrGated)
		}
	}
	edits, err := itemEdits(s, list.Loc, "list", str(q, node))
	if err != nil {
		return err
	}
	return p.change(s, edits)
}

// checkpointer gives the agent's constructor (or graph compile) the
// checkpointer that interrupt() needs, when it has none.
func (p *planner) checkpointer() error {
	s, a, err := p.agent()
	if err != nil {
		return err
	}
	if a.Checkpoint || a.Call == nil {
		return nil
	}
	if a.Ctor == "StateGraph" && len(a.Call.Args) > 0 {
		return nil // compile(saver): the first positional argument is the checkpointer
	}
	saver, imp := s.importName("langgraph.checkpoint.memory", "InMemorySaver")
	edits := []edit{}
	if v := a.Call.Kwarg("checkpointer"); v != nil {
		edits = append(edits, edit{int(v.Loc.Start.Byte), int(v.Loc.End.Byte), saver + "()"}) // checkpointer=None
	} else if edits, err = kwargEdits(s, a.Call, "checkpointer="+saver+"()"); err != nil {
		return err
	}
	return p.change(s, append(edits, imp...))
}
