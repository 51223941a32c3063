// Package gate plans the quick fix that puts a human approval gate in front
// of an agent's outward actions, in the idiom of the agent's framework:
// LangGraph interrupt() at the top of a tool's body, LangChain
// HumanInTheLoopMiddleware on create_agent, OpenAI Agents SDK
// needs_approval=True, LangGraph interrupt_before for tools whose code is
// not in the tree; plus the checkpointer interrupt() needs and the imports.
//
// Planning is a pure function of the files' texts: each step edits the
// text, re-parses and re-extracts it, so later steps (another tool, the
// checkpointer) see the earlier ones and a gate is never added twice. The
// result is the line diff of each changed file, refused unless the new code
// parses without errors.
package gate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// File is one file a fix may edit, as the analysis saw it.
type File struct {
	Path string
	Src  []byte
}

// Tool is a tool to gate, as the capability graph knows it.
type Tool struct {
	ID        string
	Name      string // the name the model calls it by
	Path      string // the file that defines it
	Kind      extract.ToolKind
	Framework extract.Framework
	// FuncQual is the Func.Qual of the body that runs (a tool function, a
	// BaseTool's _run, a graph node), when that body is in Path.
	FuncQual string
	// Node is the graph node of the agent that runs the tool, when known.
	Node string
	// Class and Ctor locate a prebuilt tool: the library class and the
	// constructor call in Path.
	Class string
	Ctor  extract.Loc
}

// Request asks for one fix: gate Tools for the agent AgentID (defined in
// AgentPath). Files holds the texts of AgentPath and every tool's Path.
type Request struct {
	AgentID   string
	AgentPath string
	Tools     []Tool
	Files     map[string]File
}

// Edit replaces the bytes [Start, End) of a file's original text.
type Edit struct {
	Start, End int
	Text       string
}

// Fix is a planned fix: edits by path, each list sorted and not overlapping.
type Fix struct {
	Title string
	Edits map[string][]Edit
}

// ErrGated is returned when a tool already has a gate in its code that the
// fix would duplicate; ErrNoGate when acg knows no gate for the tool's kind.
var (
	ErrGated  = errors.New("already has an approval gate")
	ErrNoGate = errors.New("no automatic approval gate")
)

// Plan computes the fix. An error says why no fix is offered.
func Plan(req Request) (*Fix, error) {
	if len(req.Tools) == 0 {
		return nil, fmt.Errorf("nothing to gate")
	}
	p := &planner{req: req, srcs: map[string]*source{}, orig: map[string]*source{}, applied: map[string][]edit{}}
	if _, err := p.source(req.AgentPath); err != nil {
		return nil, err
	}
	var how []string
	for _, t := range req.Tools {
		h, err := p.gate(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		how = appendUniq(how, h)
	}
	if p.needsCheckpointer {
		if err := p.checkpointer(); err != nil {
			return nil, err
		}
	}
	if p.needsTSCheckpointer {
		if err := p.tsCheckpointer(); err != nil {
			return nil, err
		}
	}
	fix := &Fix{Edits: map[string][]Edit{}}
	for path, s := range p.srcs {
		o := p.orig[path]
		if string(o.src) == string(s.src) {
			continue
		}
		if s.hasErrors() && !o.hasErrors() {
			return nil, fmt.Errorf("the edit of %s would not parse; not offered", path)
		}
		fix.Edits[path] = lineDiff(o.src, s.src)
	}
	if len(fix.Edits) == 0 {
		return nil, ErrGated
	}
	if len(req.Tools) == 1 {
		fix.Title = fmt.Sprintf("Require human approval before %s (%s)", req.Tools[0].Name, how[0])
	} else {
		names := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			names[i] = t.Name
		}
		fix.Title = fmt.Sprintf("Require human approval before every outward action: %s (%s)", strings.Join(names, ", "), strings.Join(how, ", "))
	}
	return fix, nil
}

type planner struct {
	req  Request
	srcs map[string]*source // current texts
	orig map[string]*source
	// applied lists each file's edits in order, to follow an offset of the
	// original text into the current one.
	applied map[string][]edit
	// needsCheckpointer is set by gates that pause the graph (interrupt).
	needsCheckpointer bool
	// needsTSCheckpointer: the same for a LangGraph.js agent (tssrc.go).
	needsTSCheckpointer bool
}

func (p *planner) source(path string) (*source, error) {
	if s := p.srcs[path]; s != nil {
		return s, nil
	}
	f, ok := p.req.Files[path]
	if !ok {
		return nil, fmt.Errorf("the text of %s is not available", path)
	}
	s, err := parseSource(path, f.Src)
	if err != nil {
		return nil, err
	}
	p.srcs[path], p.orig[path] = s, s
	return s, nil
}

// change applies a step's edits to one file.
func (p *planner) change(s *source, edits []edit) error {
	if len(edits) == 0 {
		return nil
	}
	n, err := s.apply(edits) // sorts edits last to first
	if err != nil {
		return err
	}
	p.srcs[s.path] = n
	p.applied[s.path] = append(p.applied[s.path], edits...)
	return nil
}

// current maps an offset of a file's original text to its current text.
func (p *planner) current(path string, off int) int {
	for _, e := range p.applied[path] {
		if e.start < off || e.start == off && e.end > off {
			off += len(e.text) - (e.end - e.start)
		}
	}
	return off
}

// agent returns the agent's facts in the current text of its file.
func (p *planner) agent() (*source, *extract.Agent, error) {
	s, err := p.source(p.req.AgentPath)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range s.facts.Agents {
		if a.ID == p.req.AgentID {
			return s, a, nil
		}
	}
	return nil, nil, fmt.Errorf("agent %s is no longer in %s", p.req.AgentID, p.req.AgentPath)
}

// gate adds the gate for one tool and says which kind it added.
func (p *planner) gate(t Tool) (string, error) {
	as, a, err := p.agent()
	if err != nil {
		return "", err
	}
	switch {
	case tsPath(as.path) && a.Framework == extract.FrameworkVercelAI && toolApprovalObject(a) != nil:
		// The call already lists approvals in the current major's
		// toolApproval option: the entry goes there.
		return `toolApproval entry "user-approval"`, p.toolApprovalEntry(as, a, t)
	case tsPath(t.Path) && t.Kind == extract.ToolFunc && (t.Framework == extract.FrameworkOpenAIAgents || t.Framework == extract.FrameworkVercelAI):
		// Both spell it the same in the tool's options (the AI SDK's
		// per-tool flag; OpenAI Agents JS's only one).
		return "needsApproval: true", p.tsFlag(t, "needsApproval")
	case tsPath(t.Path) && t.Kind == extract.ToolFunc && t.Framework == extract.FrameworkMastra:
		// Mastra suspends the agent before a tool marked so (createTool).
		return "requireApproval: true", p.tsFlag(t, "requireApproval")
	case tsPath(t.Path) && t.FuncQual != "" && isLangChain(a.Framework):
		// LangGraph.js: interrupt() from @langchain/langgraph first in
		// the tool's function, in TypeScript.
		p.needsTSCheckpointer = true
		return "interrupt()", p.tsInterrupt(t)
	case a.Framework == extract.FrameworkCrewAI:
		// A crew runs no LangGraph: its gate is a pre-tool-call hook.
		return "before_tool_call hook", p.crewHook(as, t)
	case a.Ctor == "create_agent":
		p.needsCheckpointer = true
		return "HumanInTheLoopMiddleware", p.middleware(as, a, t)
	case t.Framework == extract.FrameworkAgentFramework && (t.Kind == extract.ToolFunc || t.Kind == extract.ToolAgent):
		return `approval_mode="always_require"`, p.approvalMode(t)
	case a.Framework == extract.FrameworkGoogleADK && t.Kind == extract.ToolFunc:
		return "require_confirmation=True", p.requireConfirmation(as, a, t)
	case t.Framework == extract.FrameworkPydanticAI && t.Kind == extract.ToolFunc:
		return "requires_approval=True", p.requiresApproval(t)
	case t.Kind == extract.ToolAgent && t.Framework == extract.FrameworkOpenAIAgents:
		return "needs_approval=True", p.asTool(t)
	case t.Framework == extract.FrameworkOpenAIAgents && t.Kind == extract.ToolFunc:
		return "needs_approval=True", p.needsApproval(t)
	case t.Kind == extract.ToolPrebuilt && p.approvalKwarg(t) != "":
		return p.approvalKwarg(t) + "=True", p.prebuilt(t)
	case t.FuncQual != "" && isLangChain(a.Framework):
		if isLangChain(a.Framework) {
			p.needsCheckpointer = true
		}
		return "interrupt()", p.interruptInBody(t)
	case a.Ctor == "create_react_agent" || a.Ctor == "StateGraph":
		p.needsCheckpointer = true
		return "interrupt_before", p.interruptBefore(as, a, t)
	}
	return "", fmt.Errorf("%w for a %s tool of framework %s", ErrNoGate, t.Kind, t.Framework)
}

func isLangChain(fw extract.Framework) bool {
	return fw == extract.FrameworkLangChain || fw == extract.FrameworkLangGraph
}

// tool finds the tool's facts in the current text of its file.
func (p *planner) tool(t Tool) (*source, *extract.Tool, error) {
	s, err := p.source(t.Path)
	if err != nil {
		return nil, nil, err
	}
	for _, x := range s.facts.Tools {
		if x.ID == t.ID {
			return s, x, nil
		}
	}
	return s, nil, fmt.Errorf("tool %s is no longer in %s", t.Name, t.Path)
}

func (p *planner) funcOf(t Tool) (*source, *extract.Func, error) {
	s, err := p.source(t.Path)
	if err != nil {
		return nil, nil, err
	}
	for _, fn := range s.facts.Funcs {
		if fn.Qual == t.FuncQual {
			return s, fn, nil
		}
	}
	return nil, nil, fmt.Errorf("the body of %s (%s) is no longer in %s", t.Name, t.FuncQual, t.Path)
}

func appendUniq(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
