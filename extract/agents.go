package extract

import "strings"

// ToolKind says where a tool's behaviour is described.
type ToolKind string

const (
	ToolFunc     ToolKind = "function" // a decorated or wrapped function whose body is in the tree
	ToolClass    ToolKind = "class"    // a BaseTool subclass: its _run body
	ToolPrebuilt ToolKind = "prebuilt" // an instance of a library class: the catalog decides
	ToolAgent    ToolKind = "agent"    // agent.as_tool(): the agent's reach is the tool's
	ToolNode     ToolKind = "node"     // a LangGraph node function: runs inside the graph like a tool
	ToolMCP      ToolKind = "mcp"      // a tool of an MCP server
	ToolBuiltin  ToolKind = "builtin"  // a client's built-in tool (Claude Code Bash, Read …)
)

// Tool is a capability an agent can invoke.
type Tool struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`   // the name the model sees
	Symbol    string    `json:"symbol"` // the Python name references resolve to
	Framework Framework `json:"framework"`
	Kind      ToolKind  `json:"kind"`
	// Func is the body that decides the tool's effects (function tools,
	// class tools' _run, graph nodes); FuncRef names it when it lives
	// elsewhere (StructuredTool.from_function(func=f)).
	Func    *Func `json:"-"`
	FuncRef *Expr `json:"-"`
	// Branch, when set, is the part of Func that runs for this tool (one
	// `if name == "x":` block of a low-level MCP call_tool handler).
	Branch Loc `json:"-"`
	// Class is the qualified library class of a prebuilt tool.
	Class string `json:"class,omitempty"`
	// AgentRef is the agent behind agent.as_tool().
	AgentRef *Expr `json:"-"`
	// Ctor is the expression that builds the tool (constructor arguments).
	Ctor *Expr `json:"-"`
	// Approvals that gate every call of this tool wherever it is used.
	Approvals []*Approval `json:"-"`
	// Decorator is the decorator that made the function a tool.
	Decorator *Expr `json:"-"`
	Loc       Loc   `json:"-"`
	NameLoc   Loc   `json:"-"`
	// Server groups MCP tools under their server entry.
	Server string `json:"server,omitempty"`
	// Effects declared by the source itself (MCP annotations, config data)
	// rather than derived from code; see package effects.
	Declared map[string]bool `json:"-"`
	// Extra carries adapter data (e.g. a Claude Code rule specifier).
	Extra map[ExtraKey]string `json:"-"`
}

// Approval is a point where a human approves before an action runs.
type Approval struct {
	Kind string `json:"kind"` // interrupt, needs_approval, interrupt_before, hitl_middleware, require_approval, …
	Loc  Loc    `json:"loc"`
	// Tools lists the tool names it gates; Nodes the graph nodes; both empty
	// with All set means everything the agent runs.
	Tools []string `json:"tools,omitempty"`
	Nodes []string `json:"nodes,omitempty"`
	All   bool     `json:"all,omitempty"`
	// After is set for interrupt_after: it gates the successors of Nodes.
	After bool `json:"after,omitempty"`
	// Where, when set, is the graph node the approval sits in: it covers
	// only the tools that node runs (a dispatching tool node that asks
	// before some of the calls it invokes).
	Where string `json:"where,omitempty"`
	// Except lists tool names an All approval leaves ungated.
	Except []string `json:"except,omitempty"`
	Detail string   `json:"detail,omitempty"`
	// Expr is the expression carrying the gate, for edits.
	Expr *Expr `json:"-"`
}

// Covers reports whether the approval gates a tool with the given name
// running in the given graph node.
func (a *Approval) Covers(toolName, node string) bool {
	if a.Where != "" && node != a.Where {
		return false
	}
	if a.All {
		for _, t := range a.Except {
			if t == toolName {
				return false
			}
		}
		return true
	}
	for _, t := range a.Tools {
		if t == toolName {
			return true
		}
	}
	if !a.After {
		for _, n := range a.Nodes {
			if n == node || n == "*" {
				return true
			}
		}
	}
	return false
}

// ToolRef is an entry of an agent's tool list, not yet resolved.
type ToolRef struct {
	Expr *Expr
	// Tool is set instead of Expr when the adapter made the tool itself.
	Tool *Tool
	// Node is the graph node running the tool ("tools" for prebuilt agents).
	Node string
	// Key is the name the model calls the tool by when the list is an
	// object keyed by name (the AI SDK's tools: { send: makeSend(x) }): an
	// approval naming that key covers the tool whatever the tool is named.
	Key string
}

// Agent is an LLM loop that chooses which tools to call.
type Agent struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Var       string    `json:"var,omitempty"`
	Framework Framework `json:"framework"`
	Ctor      string    `json:"ctor"`
	Loc       Loc       `json:"-"`
	NameLoc   Loc       `json:"-"`
	Tools     []ToolRef
	Handoffs  []*Expr `json:"-"`
	// SubAgents are agents this one runs as a step (graph nodes, crew
	// delegation) and keeps control over.
	SubAgents  []*Expr `json:"-"`
	MCPServers []*Expr `json:"-"`
	// ServerIDs are MCP servers of this file the agent uses, by id
	// (servers declared by value, such as CrewAI mcps=["https://…"]).
	ServerIDs  []string    `json:"-"`
	Approvals  []*Approval `json:"-"`
	Graph      *Graph      `json:"-"`
	Call       *Expr       `json:"-"` // the constructor call, for edits
	Checkpoint bool        `json:"-"` // a checkpointer is configured (interrupt() needs one)
	// Direct tools created by the adapter (config-defined agents).
	Direct []*Tool `json:"-"`
	// Delegates lists agent ids this agent can hand work to (crew delegation).
	Delegates []string `json:"-"`
	// ActiveTools, when set, are the only tool names the model may call
	// (Mastra's defaultOptions.activeTools, the AI SDK's activeTools).
	ActiveTools []string `json:"-"`
	// Extra carries adapter data.
	Extra map[ExtraKey]string `json:"-"`
}

// Graph is a LangGraph StateGraph under construction.
type Graph struct {
	Var   string
	Nodes []*GraphNode
	Edges []GraphEdge
	// Open is set when some routing could not be read (a router whose
	// targets are unknown): then any node may follow any other.
	Open bool
}

// GraphNode is one add_node.
type GraphNode struct {
	Name   string
	Action *Expr
	Loc    Loc
	// Model is set for a node that calls the model with its tools bound:
	// where the model's choices enter the graph.
	Model bool
}

// GraphEdge is an edge between nodes; START and END are "__start__"/"__end__".
type GraphEdge struct {
	From, To string
}

// Node returns the node named n.
func (g *Graph) Node(n string) *GraphNode {
	for _, x := range g.Nodes {
		if x.Name == n {
			return x
		}
	}
	return nil
}

// Successors returns the nodes an edge leads to from n.
func (g *Graph) Successors(n string) []string {
	var out []string
	for _, e := range g.Edges {
		if e.From == n {
			out = append(out, e.To)
		}
	}
	return out
}

// QualIs reports whether a qualified name is `name` exported from one of the
// top-level packages (e.g. agents.Agent or agents.agent.Agent).
func QualIs(q string, name string, tops ...string) bool {
	if LastDot(q) != name {
		return false
	}
	top, _, _ := strings.Cut(q, ".")
	for _, t := range tops {
		if top == t {
			return true
		}
	}
	return false
}

// Qualify resolves the head of a dotted name through the imports visible in
// the scope: `t.send_http` with `import tools as t` is "tools.send_http".
func (s *Scope) Qualify(dotted string) (string, bool) {
	head, rest, _ := strings.Cut(dotted, ".")
	bs := s.Lookup(head)
	if len(bs) == 0 {
		return dotted, false
	}
	bd := bs[len(bs)-1]
	if bd.Kind != BindImport {
		return dotted, false
	}
	// `import a.b` binds both a and a.b: prefer the longest.
	parts := strings.Split(dotted, ".")
	for i := len(parts); i > 1; i-- {
		if b2 := s.Lookup(strings.Join(parts[:i], ".")); len(b2) > 0 && b2[len(b2)-1].Kind == BindImport {
			q := b2[len(b2)-1].Imp.Qualified()
			if i < len(parts) {
				q += "." + strings.Join(parts[i:], ".")
			}
			return q, true
		}
	}
	q := bd.Imp.Qualified()
	if rest != "" {
		q += "." + rest
	}
	return q, true
}

// QualOf returns the import-qualified name of a Name or Call expression
// (a call's callee), or "" when its head is not an import.
func QualOf(e *Expr) string {
	if e == nil || e.Scope == nil {
		return ""
	}
	switch e.Kind {
	case ExprCall:
		if e.Call != nil && e.Call.HeadKind == HeadImport {
			return e.Call.Qual
		}
		if e.Recv == nil {
			if q, ok := e.Scope.Qualify(e.Name); ok {
				return q
			}
		}
	case ExprName:
		if q, ok := e.Scope.Qualify(e.Name); ok {
			return q
		}
	}
	return ""
}

// Func is the function a node runs, when its action names one.
func (n *GraphNode) Func() *Func {
	act := Deref(n.Action)
	if act == nil || act.Kind != ExprName {
		return nil
	}
	return FuncDef(act.Scope, act.Name)
}
