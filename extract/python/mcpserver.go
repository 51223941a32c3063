package python

import (
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// MCP servers in code: FastMCP v1 (mcp.server.fastmcp), the SDK v2
// MCPServer (mcp.server.mcpserver), the standalone fastmcp package and the
// low-level Server with list_tools/call_tool. A server is not an agent: its
// tools become agents' tools when a client (a config entry, an
// MCPServerStdio in code) starts it. Tool annotations are recorded as
// declared hints (decided_by annotation, below the code's own evidence);
// ctx.elicit() before an action is an approval (see isGateCall).

func init() { treeAdapters = append(treeAdapters, mcpServers) }

// ---- servers in code ----

func isServerCtor(q string) (framework extract.Framework, lowLevel bool, ok bool) {
	switch {
	case extract.QualIs(q, "FastMCP", "fastmcp"):
		return "fastmcp", false, true
	case extract.QualIs(q, "FastMCP", "mcp"), extract.QualIs(q, "MCPServer", "mcp"):
		return "mcp", false, true
	case extract.QualIs(q, "Server", "mcp") && !strings.Contains(q, "fastmcp"):
		return "mcp", true, true
	}
	return "", false, false
}

func mcpServers(f *extract.File, root *syntax.Node, src []byte) {
	byVar := map[string]*extract.MCPServer{}
	lowLevel := map[string]bool{}
	for _, c := range f.Calls() {
		fw, low, ok := isServerCtor(c.Qual)
		if !ok || c.HeadKind != extract.HeadImport {
			continue
		}
		s := &extract.MCPServer{Framework: fw, Var: c.AssignedTo, Loc: c.Loc, NameLoc: c.Loc, Ctor: c.Expr}
		if n, ok := extract.StrArg(c.Expr, 0, "name"); ok && n != "" {
			s.Name = n
		} else if c.AssignedTo != "" {
			s.Name = c.AssignedTo
		} else {
			s.Name = "mcp-server"
		}
		s.ID = f.UniqueServerID(s.Name)
		f.Servers = append(f.Servers, s)
		if c.AssignedTo != "" {
			byVar[c.AssignedTo] = s
			lowLevel[c.AssignedTo] = low
		}
		if low {
			// v2 low-level: Server("name", on_list_tools=fn, on_call_tool=fn).
			list := extract.FuncDef(c.Expr.Scope, c.Expr.Kwarg("on_list_tools").NameOrEmpty())
			call := extract.FuncDef(c.Expr.Scope, c.Expr.Kwarg("on_call_tool").NameOrEmpty())
			lowLevelTools(f, s, list, call, root, src)
		}
	}
	if len(byVar) == 0 {
		return
	}
	var lists, handlers = map[*extract.MCPServer]*extract.Func{}, map[*extract.MCPServer]*extract.Func{}
	for _, fn := range f.Funcs {
		for _, d := range fn.Decorators {
			name := d.Name
			if d.Kind != extract.ExprName && d.Kind != extract.ExprCall {
				continue
			}
			v, m, ok := strings.Cut(name, ".")
			s := byVar[v]
			if !ok || s == nil {
				continue
			}
			switch m {
			case "tool":
				if lowLevel[v] {
					continue
				}
				t := &extract.Tool{Name: fn.Name, Symbol: fn.Name, Framework: s.Framework, Kind: extract.ToolFunc, Func: fn,
					Decorator: d, Loc: fn.Loc, NameLoc: fn.NameLoc, Server: s.ID}
				if d.Kind == extract.ExprCall {
					if n, ok := extract.StrArg(d, 0, "name"); ok && n != "" {
						t.Name = n
					}
					extract.AnnotationHints(t, d.Kwarg("annotations"))
				}
				f.AddTool(t)
				s.Tools = append(s.Tools, t)
			case "list_tools":
				lists[s] = fn
			case "call_tool":
				handlers[s] = fn
			}
		}
	}
	for _, s := range f.Servers {
		if lists[s] != nil || handlers[s] != nil {
			lowLevelTools(f, s, lists[s], handlers[s], root, src)
		}
	}
	// mcp.add_tool(fn, name=..., annotations=...)
	for _, c := range f.Calls() {
		e := c.Expr
		v, m, ok := strings.Cut(e.Name, ".")
		s := byVar[v]
		if !ok || s == nil || m != "add_tool" || e.Recv != nil {
			continue
		}
		fref := e.Arg(0, "fn")
		if fref == nil {
			continue
		}
		name := extract.LastDot(fref.Name)
		if n, ok := extract.StrArg(e, 1, "name"); ok && n != "" {
			name = n
		}
		t := &extract.Tool{Name: name, Symbol: extract.LastDot(fref.Name), Framework: s.Framework, Kind: extract.ToolFunc, FuncRef: fref,
			Ctor: e, Loc: c.Loc, NameLoc: c.Loc, Server: s.ID}
		if fref.Kind == extract.ExprName && !strings.Contains(fref.Name, ".") {
			t.Func = extract.FuncDef(fref.Scope, fref.Name)
			if t.Func != nil {
				t.Loc, t.NameLoc = t.Func.Loc, t.Func.NameLoc
			}
		}
		extract.AnnotationHints(t, e.Kwarg("annotations"))
		f.AddTool(t)
		s.Tools = append(s.Tools, t)
	}
}

// lowLevelTools reads a low-level server: tool names from the Tool(name=…)
// objects list_tools returns; effects from the call_tool handler, per
// `if name == "x":` branch when the handler dispatches that way, else the
// whole handler for every tool (an over-approximation: never a missed label).
func lowLevelTools(f *extract.File, s *extract.MCPServer, list, handler *extract.Func, root *syntax.Node, src []byte) {
	type decl struct {
		name string
		loc  extract.Loc
		ann  *extract.Expr
	}
	var decls []decl
	if list != nil {
		for _, c := range list.Calls {
			if c.Expr == nil || !extract.QualIs(c.Qual, "Tool", "mcp") {
				continue
			}
			if n, ok := extract.StrArg(c.Expr, -1, "name"); ok && n != "" {
				decls = append(decls, decl{n, c.Loc, c.Expr.Kwarg("annotations")})
			}
		}
	}
	var branches map[string]extract.Loc
	if handler != nil {
		nameParam := ""
		for _, p := range handler.Params {
			if !p.Injected {
				nameParam = p.Name
				break
			}
		}
		if nameParam != "" {
			branches = nameBranches(root, src, f, handler, nameParam)
		}
		// Handler branches name tools the list does not (a list built in a
		// loop, or from an enum): they are tools too.
		var extra []string
		for n := range branches {
			found := false
			for _, d := range decls {
				found = found || d.name == n
			}
			if !found {
				extra = append(extra, n)
			}
		}
		sort.Strings(extra)
		for _, n := range extra {
			decls = append(decls, decl{n, branches[n], nil})
		}
	}
	if len(decls) == 0 && handler != nil {
		// Tool names unknown: one tool standing for the whole handler.
		decls = append(decls, decl{s.Name + ":*", handler.NameLoc, nil})
	}
	for _, d := range decls {
		t := &extract.Tool{Name: d.name, Symbol: s.Name + "." + d.name, Framework: s.Framework, Kind: extract.ToolFunc, Func: handler,
			Loc: d.loc, NameLoc: d.loc, Server: s.ID}
		if b, ok := branches[d.name]; ok {
			t.Branch = b
		}
		if handler == nil {
			t.Kind, t.Func = extract.ToolMCP, nil
		}
		extract.AnnotationHints(t, d.ann)
		f.AddTool(t)
		s.Tools = append(s.Tools, t)
	}
}

// nameBranches finds, in a dispatching function, the blocks that run for
// one tool name: `if name == "x":` / `elif name in ("x", "y"):` and
// `match name: case "x":`.
func nameBranches(root *syntax.Node, src []byte, f *extract.File, fn *extract.Func, param string) map[string]extract.Loc {
	fnNode := descendantAt(root, f, fn.Loc)
	if fnNode == nil {
		return nil
	}
	out := map[string]extract.Loc{}
	b := &builder{src: src, f: f}
	isParam := func(s string) bool { return s == param || s == param+".name" }
	var visit func(n *syntax.Node, depth int)
	visit = func(n *syntax.Node, depth int) {
		if depth > 200 {
			return
		}
		switch n.Type() {
		case "if_statement", "elif_clause":
			if names := comparedNamesBy(n.ChildByFieldName("condition"), src, isParam); len(names) > 0 {
				if body := n.ChildByFieldName("consequence"); body != nil {
					for _, nm := range names {
						if _, dup := out[nm]; !dup {
							out[nm] = b.loc(body)
						}
					}
				}
			}
		case "match_statement":
			if subj := n.ChildByFieldName("subject"); subj != nil && isParam(subj.Content(src)) {
				for _, c := range named(n.ChildByFieldName("body")) {
					if c.Type() != "case_clause" {
						continue
					}
					body := c.ChildByFieldName("consequence")
					for _, pat := range named(c) {
						if pat.Type() != "case_pattern" {
							continue
						}
						for _, nm := range stringLits(pat, src) {
							if _, dup := out[nm]; !dup && body != nil {
								out[nm] = b.loc(body)
							}
						}
					}
				}
			}
		}
		for _, c := range named(n) {
			if c.Type() == "function_definition" || c.Type() == "class_definition" {
				continue
			}
			visit(c, depth+1)
		}
	}
	if body := fnNode.ChildByFieldName("body"); body != nil {
		visit(body, 0)
	}
	return out
}

// comparedNamesBy reads `p == "x"`, `"x" == p`, `p in ("x", "y")` (also
// through `or`) where p is an expression accept says is the tool's name.
func comparedNamesBy(cond *syntax.Node, src []byte, accept func(string) bool) []string {
	if cond == nil {
		return nil
	}
	switch cond.Type() {
	case "parenthesized_expression":
		if ns := named(cond); len(ns) == 1 {
			return comparedNamesBy(ns[0], src, accept)
		}
	case "boolean_operator":
		if op := cond.ChildByFieldName("operator"); op != nil && op.Content(src) == "or" {
			l := comparedNamesBy(cond.ChildByFieldName("left"), src, accept)
			r := comparedNamesBy(cond.ChildByFieldName("right"), src, accept)
			if l != nil && r != nil {
				return append(l, r...)
			}
		}
	case "comparison_operator":
		ns := named(cond)
		if len(ns) != 2 {
			return nil
		}
		op := ""
		for i := 0; i < int(cond.ChildCount()); i++ {
			if c := cond.Child(i); !c.IsNamed() {
				op += c.Content(src)
			}
		}
		l, r := ns[0], ns[1]
		is := func(n *syntax.Node) bool { return accept(n.Content(src)) }
		switch op {
		case "==":
			if is(l) {
				return stringLits(r, src)
			}
			if is(r) {
				return stringLits(l, src)
			}
		case "in":
			if is(l) {
				return stringLits(r, src)
			}
		}
	}
	return nil
}

// stringLits returns the plain string literals in a node (a literal, a
// tuple/list/set of them, an or-pattern of them).
func stringLits(n *syntax.Node, src []byte) []string {
	var out []string
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		if n.Type() == "string" {
			if s, ok := plainString(n, src); ok {
				out = append(out, s)
			}
			return
		}
		switch n.Type() {
		case "tuple", "list", "set", "case_pattern", "union_pattern", "parenthesized_expression", "expression_list", "tuple_pattern", "list_pattern":
			for _, c := range named(n) {
				walk(c)
			}
		}
	}
	walk(n)
	return out
}

// plainString decodes a string literal without interpolation or escapes.
func plainString(n *syntax.Node, src []byte) (string, bool) {
	text := n.Content(src)
	i := strings.IndexAny(text, `"'`)
	if i < 0 || strings.ContainsAny(strings.ToLower(text[:i]), "fb") {
		return "", false
	}
	q := text[i:]
	for _, d := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(q, d) && strings.HasSuffix(q, d) && len(q) >= 2*len(d) {
			body := q[len(d) : len(q)-len(d)]
			if strings.Contains(body, `\`) {
				return "", false
			}
			return body, true
		}
	}
	return "", false
}

// descendantAt returns the smallest named node spanning a location.
func descendantAt(root *syntax.Node, f *extract.File, l extract.Loc) *syntax.Node {
	start, end := uint32(l.Start.Byte), uint32(l.End.Byte)
	n := root
	for {
		var next *syntax.Node
		for _, k := range n.NamedChildren() {
			if k.StartByte() <= start && k.EndByte() >= end {
				next = k
				break
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}
