package typescript

import (
	"testing"

	"github.com/acg-dev/acg/extract"
)

// The facts here are built by hand in the shape the front end gives them
// (ts-common conventions), so the adapters are tested on their own; the
// golden scans of testdata/ts test them with the front end.

func fwStr(s string) *extract.Expr  { return &extract.Expr{Kind: extract.ExprStr, Str: s} }
func fwName(s string) *extract.Expr { return &extract.Expr{Kind: extract.ExprName, Name: s} }
func fwBool(b bool) *extract.Expr {
	return &extract.Expr{Kind: extract.ExprBool, Bool: b}
}
func fwList(xs ...*extract.Expr) *extract.Expr {
	return &extract.Expr{Kind: extract.ExprList, Elems: xs}
}
func fwObject(kv ...*extract.Expr) *extract.Expr {
	e := &extract.Expr{Kind: extract.ExprDict}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Keys, e.Elems = append(e.Keys, kv[i]), append(e.Elems, kv[i+1])
	}
	return e
}

type fwFileBuilder struct {
	f   *extract.File
	mod *extract.Func
}

func fwNewFile(path string) *fwFileBuilder {
	mod := &extract.Func{Name: "<module>", Qual: "<module>"}
	return &fwFileBuilder{f: &extract.File{Path: path, Funcs: []*extract.Func{mod}}, mod: mod}
}

// call adds a call of qual to fn (the module body when nil), assigned to
// v, with the expression's callee written as callee.
func (b *fwFileBuilder) call(fn *extract.Func, v, qual, callee string, head extract.HeadKind, recv *extract.Expr, args ...*extract.Expr) *extract.Expr {
	if fn == nil {
		fn = b.mod
	}
	e := &extract.Expr{Kind: extract.ExprCall, Name: callee, Recv: recv, Args: args}
	c := &extract.Call{Index: len(fn.Calls), Func: fn, Qual: qual, HeadKind: head, Expr: e, AssignedTo: v, Dom: len(fn.Calls) - 1}
	e.Call = c
	fn.Calls = append(fn.Calls, c)
	return e
}

func (b *fwFileBuilder) fn(n string) *extract.Func {
	fn := &extract.Func{Name: n, Qual: n}
	b.f.Funcs = append(b.f.Funcs, fn)
	return fn
}

func TestMastraAdapter(t *testing.T) {
	b := fwNewFile("src/mastra/tools/mail.ts")
	send := b.fn("sendEmail.execute")
	b.call(send, "info", "nodemailer.createTransport().sendMail", "transport.sendMail", extract.HeadObject, nil)
	b.call(nil, "sendEmail", "@mastra/core/tools.createTool", "createTool", extract.HeadImport, nil,
		fwObject(fwStr("id"), fwStr("send-email"), fwStr("description"), fwStr("Send mail"), fwStr("requireApproval"), fwBool(true), fwStr("execute"), fwName("sendEmail.execute")))
	read := b.fn("readNotes.execute")
	b.call(nil, "readNotes", "@mastra/core/tools.createTool", "createTool", extract.HeadImport, nil,
		fwObject(fwStr("id"), fwStr("read-notes"), fwStr("execute"), fwName("readNotes.execute"), fwStr("requireApproval"), fwName("askWhenBig")))
	b.call(nil, "inboxAgent", "@mastra/core/agent.Agent", "Agent", extract.HeadImport, nil,
		fwObject(fwStr("id"), fwStr("inbox-agent"), fwStr("name"), fwStr("Inbox Agent"), fwStr("tools"), fwObject(fwStr("readNotes"), fwName("readNotes"), fwStr("sendEmail"), fwName("sendEmail"))))
	// Another package's createTool is not Mastra's.
	b.call(nil, "other", "my-tools.createTool", "createTool", extract.HeadImport, nil, fwObject(fwStr("id"), fwStr("x")))
	MastraAdapter(b.f)
	if len(b.f.Tools) != 2 {
		t.Fatalf("tools: %d, want 2", len(b.f.Tools))
	}
	st, rn := b.f.Tools[0], b.f.Tools[1]
	if st.Name != "send-email" || st.Symbol != "sendEmail" || st.Func != send || st.Framework != extract.FrameworkMastra {
		t.Errorf("send-email: %+v", st)
	}
	if len(st.Approvals) != 1 || !st.Approvals[0].All || st.Approvals[0].Kind != "require_approval" {
		t.Errorf("requireApproval: true should gate every call: %+v", st.Approvals)
	}
	if rn.Func != read || len(rn.Approvals) != 1 || rn.Approvals[0].All || rn.Approvals[0].Detail != "conditional" {
		t.Errorf("a requireApproval function gates nothing for sure: %+v", rn.Approvals)
	}
	if len(b.f.Agents) != 1 || b.f.Agents[0].Name != "Inbox Agent" || len(b.f.Agents[0].Tools) != 2 {
		t.Fatalf("agents: %+v", b.f.Agents)
	}
	if b.f.Agents[0].Tools[1].Expr.Name != "sendEmail" {
		t.Errorf("tool refs: %+v", b.f.Agents[0].Tools)
	}
}

func TestMCPServerAdapter(t *testing.T) {
	b := fwNewFile("src/server.ts")
	b.call(nil, "server", "@modelcontextprotocol/sdk/server/mcp.js.McpServer", "McpServer", extract.HeadImport, nil,
		fwObject(fwStr("name"), fwStr("notes"), fwStr("version"), fwStr("1.0.0")))
	page := b.fn("<lambda@18>")
	b.call(page, "res", "globalThis.fetch", "fetch", extract.HeadBuiltin, nil, fwName("url"))
	b.call(nil, "", "@modelcontextprotocol/sdk/server/mcp.js.McpServer().registerTool", "server.registerTool", extract.HeadObject, nil,
		fwStr("read_page"), fwObject(fwStr("description"), fwStr("Fetch"), fwStr("inputSchema"), fwObject(fwStr("url"), fwName("z.string()")),
			fwStr("annotations"), fwObject(fwStr("openWorldHint"), fwBool(true))), fwName("<lambda@18>"))
	post := b.fn("<lambda@30>")
	b.call(nil, "", "@modelcontextprotocol/sdk/server/mcp.js.McpServer().tool", "server.tool", extract.HeadObject, nil,
		fwStr("post_update"), fwStr("Post an update"), fwObject(fwStr("text"), fwName("z.string()")), fwName("<lambda@30>"))
	// tool() on something that is not the server.
	b.call(nil, "", "ai.tool", "tool", extract.HeadImport, nil, fwObject(fwStr("description"), fwStr("x")))
	MCPServerAdapter(b.f)
	if len(b.f.Servers) != 1 || b.f.Servers[0].Name != "notes" || b.f.Servers[0].Launch != nil {
		t.Fatalf("servers: %+v", b.f.Servers)
	}
	sv := b.f.Servers[0]
	if len(sv.Tools) != 2 || sv.Tools[0].Name != "read_page" || sv.Tools[0].Func != page || sv.Tools[1].Name != "post_update" || sv.Tools[1].Func != post {
		t.Fatalf("server tools: %+v", sv.Tools)
	}
	if !sv.Tools[0].Declared["network_egress"] || !sv.Tools[0].Declared["untrusted_input"] {
		t.Errorf("openWorldHint should declare egress and untrusted input: %v", sv.Tools[0].Declared)
	}
	if sv.Tools[1].Server != sv.ID {
		t.Errorf("tool not grouped under its server: %q", sv.Tools[1].Server)
	}
}

func TestLangGraphJSAdapter(t *testing.T) {
	b := fwNewFile("agent.ts")
	send := b.fn("<lambda@26>")
	gate := b.call(send, "approved", "@langchain/langgraph.interrupt", "interrupt", extract.HeadImport, nil, fwObject(fwStr("action"), fwStr("send_email")))
	b.call(send, "", "nodemailer.createTransport().sendMail", "transport.sendMail", extract.HeadObject, nil)
	b.call(nil, "sendEmail", "@langchain/core/tools.tool", "tool", extract.HeadImport, nil, fwName("<lambda@26>"),
		fwObject(fwStr("name"), fwStr("send_email"), fwStr("schema"), fwName("z.fwObject()")))
	b.call(nil, "researchAgent", "@langchain/langgraph/prebuilt.createReactAgent", "createReactAgent", extract.HeadImport, nil,
		fwObject(fwStr("llm"), fwName("model"), fwStr("tools"), fwList(fwName("sendEmail")), fwStr("checkpointer"), fwName("saver"), fwStr("interruptBefore"), fwList(fwStr("tools"))))
	// new StateGraph(MessagesAnnotation).addNode("agent", callModel).addNode("tools", new ToolNode(tools))
	//   .addEdge(START, "agent").addConditionalEdges("agent", route, ["tools", END]).addEdge("tools", "agent").compile()
	callModel := b.fn("callModel")
	sg := b.call(nil, "", "@langchain/langgraph.StateGraph", "StateGraph", extract.HeadImport, nil, fwName("MessagesAnnotation"))
	n1 := b.call(nil, "", "@langchain/langgraph.StateGraph().addNode", ".addNode", extract.HeadObject, sg, fwStr("agent"), fwName("callModel"))
	tn := b.call(nil, "", "@langchain/langgraph/prebuilt.ToolNode", "ToolNode", extract.HeadImport, nil, fwName("tools"))
	n2 := b.call(nil, "", "@langchain/langgraph.StateGraph().addNode().addNode", ".addNode", extract.HeadObject, n1, fwStr("tools"), tn)
	e1 := b.call(nil, "", "x.addEdge", ".addEdge", extract.HeadObject, n2, fwName("START"), fwStr("agent"))
	e2 := b.call(nil, "", "x.addConditionalEdges", ".addConditionalEdges", extract.HeadObject, e1, fwStr("agent"), fwName("route"), fwList(fwStr("tools"), fwName("END")))
	e3 := b.call(nil, "", "x.addEdge", ".addEdge", extract.HeadObject, e2, fwStr("tools"), fwStr("agent"))
	b.call(nil, "triage", "x.compile", ".compile", extract.HeadObject, e3)
	_ = callModel
	LangGraphJSAdapter(b.f)

	if !gate.Call.Gate || len(send.Gates) != 1 {
		t.Errorf("interrupt() is a gate of its body: gate %v, gates %d", gate.Call.Gate, len(send.Gates))
	}
	var tool *extract.Tool
	for _, x := range b.f.Tools {
		if x.Name == "send_email" {
			tool = x
		}
	}
	if tool == nil || tool.Func != send || tool.Symbol != "sendEmail" {
		t.Fatalf("tool(): %+v", b.f.Tools)
	}
	if len(b.f.Agents) != 2 {
		t.Fatalf("agents: %d, want 2 (createReactAgent, the compiled graph)", len(b.f.Agents))
	}
	ra, g := b.f.Agents[0], b.f.Agents[1]
	if ra.Name != "researchAgent" || len(ra.Tools) != 1 || ra.Tools[0].Node != "tools" || !ra.Checkpoint {
		t.Errorf("createReactAgent: %+v", ra)
	}
	if len(ra.Approvals) != 1 || ra.Approvals[0].Kind != "interrupt_before" || ra.Approvals[0].Nodes[0] != "tools" {
		t.Errorf("interruptBefore: %+v", ra.Approvals)
	}
	if g.Name != "triage" || g.Graph == nil || len(g.Graph.Nodes) != 2 || g.Graph.Open {
		t.Fatalf("graph: %+v", g.Graph)
	}
	wantEdges := map[extract.GraphEdge]bool{{From: "__start__", To: "agent"}: true, {From: "agent", To: "tools"}: true,
		{From: "agent", To: "__end__"}: true, {From: "tools", To: "agent"}: true}
	for _, e := range g.Graph.Edges {
		if !wantEdges[e] {
			t.Errorf("unexpected edge %+v", e)
		}
		delete(wantEdges, e)
	}
	if len(wantEdges) > 0 {
		t.Errorf("missing edges %v", wantEdges)
	}
	var nodeTool, toolsRef bool
	for _, r := range g.Tools {
		if r.Tool != nil && r.Tool.Func == callModel && r.Node == "agent" {
			nodeTool = true
		}
		if r.Expr != nil && r.Expr.Name == "tools" && r.Node == "tools" {
			toolsRef = true
		}
	}
	if !nodeTool || !toolsRef {
		t.Errorf("graph members: function node %v, ToolNode tools %v (%+v)", nodeTool, toolsRef, g.Tools)
	}
}
