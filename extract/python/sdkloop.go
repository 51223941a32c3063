package python

import (
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// Hand-written agent loops. Much agent code uses no framework: a loop
// calls the model SDK with tool specs (Anthropic's
// client.messages.create(tools=[...]), OpenAI's
// client.chat.completions.create(tools=[...]) or client.responses.create)
// and runs whatever tool the reply names. Such a call made inside a loop
// is an agent (framework "python", named after the enclosing function);
// its tools are the specs in tools=, resolved to the functions that carry
// them out (resolve: a function of the spec's name, or a name → function
// table of the file), else unknown (fail closed). The call counts when it
// is made in a loop, or in a function that loops (over the reply's tool
// calls); a model call with tools in straight-line code only asks for
// structured output once and is not taken for an agent.

func init() { treeAdapters = append(treeAdapters, sdkLoops) }

// sdkToolCalls are the model calls that take tools, by the end of their
// qualified name.
var sdkToolCalls = []string{"messages.create", "messages.stream", "messages.with_raw_response.create",
	"chat.completions.create", "responses.create"}

func sdkLoops(f *extract.File, root *syntax.Node, src []byte) {
	if !importsModelSDK(f) {
		return
	}
	var byStart map[uint32]*syntax.Node
	byFunc := map[*extract.Func]*extract.Agent{} // one agent per loop function (a beta and a plain call are one loop)
	for _, c := range f.Calls() {
		if c.Expr == nil || c.BuildsAgent || !sdkToolCall(c.Qual) {
			continue
		}
		tl := sdkTools(c.Expr)
		// Anthropic's MCP connector (mcp_servers=[{"type": "url", "url": ...,
		// "name": ...}]): remote servers whose tools the API calls for the
		// model, so they are the agent's tools as much as tools= is.
		servers := c.Expr.Kwarg("mcp_servers")
		if tl == nil && servers == nil {
			continue
		}
		if byStart == nil {
			byStart = callNodes(root)
		}
		if n := byStart[uint32(c.Loc.Start.Byte)]; n == nil || !inLoop(n) {
			continue
		}
		c.BuildsAgent = true
		var refs []extract.ToolRef
		for _, x := range []*extract.Expr{tl, servers} {
			if x != nil {
				refs = append(refs, extract.ToolRef{Expr: x})
			}
		}
		if a := byFunc[c.Func]; a != nil && c.Func != nil && c.Func.Name != "<module>" {
			a.Tools = append(a.Tools, refs...)
			continue
		}
		a := &extract.Agent{Framework: extract.FrameworkPython, Ctor: extract.LastDot(c.Qual), Loc: c.Loc, NameLoc: c.Loc, Call: c.Expr, Var: c.AssignedTo}
		a.Name = "agent@" + itoaLine(int(c.Loc.Start.Line)+1)
		if c.Func != nil && c.Func.Name != "<module>" {
			a.Name = c.Func.Qual
		}
		a.Tools = refs
		f.AddAgent(a)
		byFunc[c.Func] = a
	}
}

// sdkTools is the tools argument of a model call: tools=..., or the
// "tools" entry of a dict literal passed as **kwargs.
func sdkTools(e *extract.Expr) *extract.Expr {
	if tl := e.Kwarg("tools"); tl != nil {
		return tl
	}
	for _, a := range e.Args {
		if a == nil || a.Kind != extract.ExprSplat || len(a.Elems) == 0 {
			continue
		}
		if tl := extract.Deref(a.Elems[0]).Entry("tools"); tl != nil {
			return tl
		}
	}
	return nil
}

func importsModelSDK(f *extract.File) bool {
	for _, im := range f.Imports {
		top, _, _ := strings.Cut(im.Module, ".")
		if top == "anthropic" || top == "openai" {
			return true
		}
	}
	return false
}

func sdkToolCall(q string) bool {
	for _, s := range sdkToolCalls {
		if q == s || strings.HasSuffix(q, "."+s) {
			return true
		}
	}
	return false
}

// callNodes indexes the tree's call nodes by their first byte.
func callNodes(root *syntax.Node) map[uint32]*syntax.Node {
	out := map[uint32]*syntax.Node{}
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		if n.Type() == "call" {
			if _, seen := out[n.StartByte()]; !seen {
				out[n.StartByte()] = n
			}
		}
		for _, k := range n.NamedChildren() {
			walk(k)
		}
	}
	walk(root)
	return out
}

// inLoop reports a node inside a for or while loop of its own function,
// or in a function whose body has one.
func inLoop(n *syntax.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "for_statement", "while_statement":
			return true
		case "function_definition":
			return hasLoop(p.ChildByFieldName("body"))
		case "class_definition", "lambda":
			return false
		}
	}
	return false
}

// hasLoop reports a for or while statement in a block, outside nested
// functions and classes.
func hasLoop(n *syntax.Node) bool {
	if n == nil {
		return false
	}
	for _, k := range n.NamedChildren() {
		switch k.Type() {
		case "for_statement", "while_statement":
			return true
		case "function_definition", "class_definition", "decorated_definition":
			continue
		}
		if hasLoop(k) {
			return true
		}
	}
	return false
}
