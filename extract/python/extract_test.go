package python

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/acg-dev/acg/extract"
)

func parse(t *testing.T, src string) *extract.File {
	t.Helper()
	tree, err := Parse(context.Background(), []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return Extract("pkg/mod.py", []byte(src), tree)
}

func funcNamed(f *extract.File, name string) *extract.Func {
	for _, fn := range f.Funcs {
		if fn.Qual == name {
			return fn
		}
	}
	return nil
}

func TestQualifiedCallees(t *testing.T) {
	f := parse(t, `
import requests as rq
import os.path
import imaplib
from pathlib import Path
from .sibling import helper as h
from ..up import thing

def local():
    pass

class C:
    def m(self):
        self.n()
    def n(self):
        pass

def f(x):
    rq.post(x)
    os.path.join("a", x)
    conn = imaplib.IMAP4_SSL("h")
    conn.fetch(b"1", "x")
    (Path.home() / "n").read_text()
    h(x)
    thing.do()
    local()
    x.strip()
    len(x)
    undefined_thing(x)
    C().m()
`)
	type want struct {
		qual string
		kind extract.HeadKind
	}
	got := map[string]extract.HeadKind{}
	for _, c := range funcNamed(f, "f").Calls {
		got[c.Qual] = c.HeadKind
	}
	for _, w := range []want{
		{"requests.post", extract.HeadImport},
		{"os.path.join", extract.HeadImport},
		{"imaplib.IMAP4_SSL", extract.HeadImport},
		{"imaplib.IMAP4_SSL().fetch", extract.HeadObject},
		{"pathlib.Path.home().read_text", extract.HeadObject},
		{"pkg.sibling.helper", extract.HeadImport},
		{"up.thing.do", extract.HeadImport},
		{"local", extract.HeadLocal},
		{"strip", extract.HeadData},
		{"builtins.len", extract.HeadBuiltin},
		{"undefined_thing", extract.HeadUnknown},
		{"C().m", extract.HeadObject},
	} {
		k, ok := got[w.qual]
		if !ok {
			keys := make([]string, 0, len(got))
			for q := range got {
				keys = append(keys, q)
			}
			sort.Strings(keys)
			t.Errorf("no call %q among %v", w.qual, keys)
			continue
		}
		if k != w.kind {
			t.Errorf("%s: head kind %d, want %d", w.qual, k, w.kind)
		}
	}
	if c := funcNamed(f, "C.m").Calls[0]; c.Qual != "C.n" || c.HeadKind != extract.HeadSelf {
		t.Errorf("self call = %s (%d), want C.n self", c.Qual, c.HeadKind)
	}
}

func TestFlowsReachReturnsAndArguments(t *testing.T) {
	f := parse(t, `
import requests
def f(url, body, n):
    r = requests.get(url)
    text = r.text
    data = {"b": [body]}
    requests.post("https://x.example/", json=data)
    if n:
        y = text
    else:
        y = "none"
    return f"got {y}"
`)
	fn := funcNamed(f, "f")
	get, post := fn.Calls[0], fn.Calls[1]
	if !get.Returned {
		t.Error("the GET result reaches the return through a branch and an f-string")
	}
	if post.Returned {
		t.Error("the POST result does not reach the return")
	}
	if a := post.ArgAt(-1, "json"); a == nil || len(a.Flow.Params()) != 1 || a.Flow.Params()[0] != 1 {
		t.Errorf("json= should carry parameter 1 (body), got %+v", a)
	}
	if a := get.ArgAt(0, "url"); a == nil || a.Flow.Params()[0] != 0 {
		t.Error("GET's url carries parameter 0")
	}
}

func TestDominators(t *testing.T) {
	f := parse(t, `
from langgraph.types import interrupt
def f(a):
    x = interrupt(a)
    if x:
        g1(a)
    for i in a:
        interrupt(i)
    g2(a)
`)
	fn := funcNamed(f, "f")
	byQual := map[string]*extract.Call{}
	for _, c := range fn.Calls {
		byQual[c.Qual] = c
	}
	gated := func(c *extract.Call) bool {
		for _, d := range c.Dominators() {
			if d.Gate {
				return true
			}
		}
		return false
	}
	if !gated(byQual["g1"]) || !gated(byQual["g2"]) {
		t.Error("the first interrupt dominates both later calls")
	}
	if !fn.AlwaysGates {
		t.Error("f always gates")
	}
	if len(fn.Gates) != 2 {
		t.Errorf("gates = %d, want 2", len(fn.Gates))
	}
}

func TestLoopGateDoesNotDominateEarlierCallsOfTheLoop(t *testing.T) {
	f := parse(t, `
from langgraph.types import interrupt
def f(items):
    for x in items:
        send(x)
        interrupt(x)
`)
	for _, c := range funcNamed(f, "f").Calls {
		if c.Qual != "send" {
			continue
		}
		for _, d := range c.Dominators() {
			if d.Gate {
				t.Fatal("a gate later in the loop body must not gate the send before it")
			}
		}
	}
}

func TestLangGraphExtraction(t *testing.T) {
	f := parse(t, `
from langchain_core.tools import tool, StructuredTool
from langgraph.prebuilt import create_react_agent
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware

@tool("web_fetch")
def fetch(url: str) -> str:
    return url

@tool
def plain(x): return x

def helper(x): return x
wrapped = StructuredTool.from_function(func=helper, name="wrapped_tool")

a1 = create_react_agent("m", [fetch, plain], interrupt_before=["tools"], name="explicit")
a2 = create_agent("m", tools=[wrapped], middleware=[HumanInTheLoopMiddleware(interrupt_on={"wrapped_tool": True, "plain": False})])
def build():
    return create_react_agent("m", [fetch])
`)
	var tools []string
	for _, tl := range f.Tools {
		tools = append(tools, tl.Name+"="+tl.Symbol)
	}
	if got := strings.Join(tools, ","); got != "web_fetch=fetch,plain=plain,wrapped_tool=wrapped" {
		t.Errorf("tools = %s", got)
	}
	var agents []string
	for _, a := range f.Agents {
		agents = append(agents, a.Name)
	}
	if got := strings.Join(agents, ","); got != "explicit,a2,build" {
		t.Errorf("agents = %s", got)
	}
	if ap := f.Agents[0].Approvals; len(ap) != 1 || !ap[0].Covers("anything", "tools") {
		t.Errorf("interrupt_before tools should cover the tools node: %+v", ap)
	}
	ap := f.Agents[1].Approvals
	if len(ap) != 1 || !ap[0].Covers("wrapped_tool", "tools") || ap[0].Covers("plain", "tools") {
		t.Errorf("HITL must gate exactly wrapped_tool: %+v", ap)
	}
}

func TestOpenAIExtraction(t *testing.T) {
	f := parse(t, `
from agents import Agent, function_tool, handoff

@function_tool(name_override="send", needs_approval=True)
def send_it(x: str) -> str:
    return x

@function_tool
def read(x: str) -> str:
    return x

billing = Agent(name="Billing", tools=[read])
triage = Agent(name="Triage", handoffs=[billing, handoff(billing)], tools=[billing.as_tool(tool_name="ask_billing", tool_description="d")])
triage.tools.append(send_it)
`)
	if len(f.Tools) != 3 {
		t.Fatalf("tools = %d, want 3 (send, read, ask_billing)", len(f.Tools))
	}
	if f.Tools[0].Name != "send" || len(f.Tools[0].Approvals) != 1 || !f.Tools[0].Approvals[0].All {
		t.Errorf("needs_approval=True must gate send: %+v", f.Tools[0])
	}
	if f.Tools[2].Kind != extract.ToolAgent || f.Tools[2].AgentRef.Name != "billing" {
		t.Errorf("as_tool: %+v", f.Tools[2])
	}
	if f.Agents[1].Name != "Triage" || len(f.Agents[1].Handoffs) != 1 {
		t.Errorf("triage: %+v", f.Agents[1])
	}
	var appended bool
	for _, b := range f.Scope.Bindings["triage"] {
		if b.Kind == extract.BindAppend && b.Attr == "tools" {
			appended = true
		}
	}
	if !appended {
		t.Error("triage.tools.append must be recorded")
	}
}

func TestSyntaxErrorStillExtracts(t *testing.T) {
	f := parse(t, `
from langchain_core.tools import tool

@tool
def good(x: str) -> str:
    return x

def broken(:
    pass

@tool
def also_good(y: str) -> str:
    return y
`)
	if len(f.Problems) == 0 {
		t.Error("the syntax error must be reported")
	}
	var names []string
	for _, tl := range f.Tools {
		names = append(names, tl.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "good") {
		t.Errorf("tools around the error are kept: %v", names)
	}
}

func TestUTF16Columns(t *testing.T) {
	src := "x = \"😀中\"; requests.post(x)\n"
	f := parse(t, "import requests\n"+src)
	c := f.Funcs[0].Calls[0]
	// 'x = "' is 5 units, the emoji 2, 中 1, '"; ' 3: the call starts at unit 12, column 12.
	if c.Loc.Start.Line != 2 || c.Loc.Start.Col != 12 {
		t.Errorf("call at %d:%d, want 2:12", c.Loc.Start.Line, c.Loc.Start.Col)
	}
	if want := len("import requests\n") + len("x = \"😀中\"; "); int(c.Loc.Start.Byte) != want {
		t.Errorf("byte offset %d, want %d", c.Loc.Start.Byte, want)
	}
}

func TestBodyInsertAfterDocstring(t *testing.T) {
	f := parse(t, `
def tool(x):
    """Doc."""
    return x

def one(): return 1
`)
	fn := funcNamed(f, "tool")
	if !fn.Docstring || fn.BodyInsert.Line != 4 || fn.BodyIndent != "    " {
		t.Errorf("insert at line %d indent %q docstring %v", fn.BodyInsert.Line, fn.BodyIndent, fn.Docstring)
	}
}

func TestModuleObjectsDefinedAfterTheFunction(t *testing.T) {
	f := parse(t, `
import requests

def send(url, body):
    return session.post(url, data=body)

session = requests.Session()
`)
	if c := funcNamed(f, "send").Calls[0]; c.Qual != "requests.Session().post" || c.HeadKind != extract.HeadObject {
		t.Errorf("call = %s (%d): the session built below the function is known in its body", c.Qual, c.HeadKind)
	}
}

// TestGraphBuildersAnyShape: a StateGraph builder is followed through its
// methods however the code holds it: rebound to its compiled graph, chained
// fluently, or returned by the function that builds it.
func TestGraphBuildersAnyShape(t *testing.T) {
	f := parse(t, `
from langgraph.graph import StateGraph, START

def a(s): return s
def b(s): return s

graph = StateGraph(dict)
graph.add_node("a", a)
graph.set_entry_point("a")
graph = graph.compile()

fluent = (StateGraph(dict).add_node("a", a).add_node("b", b).add_edge(START, "a").add_edge("a", "b")).compile()

def build():
    g = StateGraph(dict)
    g.add_node("b", b)
    return g

app = build().compile()

def make():
    g = StateGraph(dict)
    g.add_node("a", a)
    return g

class Service:
    def _builder(self):
        g = StateGraph(dict)
        g.add_node("a", a)
        g.add_node("b", b)
        return g

    def start(self):
        self.app = self._builder().compile()
`)
	nodes := map[string]int{}
	for _, ag := range f.Agents {
		if ag.Graph != nil {
			nodes[ag.Name] = len(ag.Graph.Nodes)
		}
	}
	want := map[string]int{"graph": 1, "fluent": 2, "app": 1, "make": 1, "start": 2}
	for n, k := range want {
		if nodes[n] != k {
			t.Errorf("agent %s: %d nodes, want %d (agents %v)", n, nodes[n], k, nodes)
		}
	}
	if len(nodes) != len(want) {
		t.Errorf("agents %v, want %v (build() is compiled as app, not an agent of its own)", nodes, want)
	}
}

// TestComputedAgentNames: an agent whose name is an attribute of its
// instance is named after the class attribute's literal, else its class,
// the same way in every framework; one built in __init__ without a name is
// the class's, not "__init__".
func TestComputedAgentNames(t *testing.T) {
	f := parse(t, `
from agents import Agent
from crewai import Agent as CrewAgent
from langgraph.prebuilt import create_react_agent
from langgraph.graph import StateGraph

def step(s): return s

class Named:
    name = "named-bot"
    def __init__(self):
        self.agent = Agent(name=self.name)

class Researcher:
    def __init__(self, role):
        self.role = role
        self.agent = CrewAgent(role=self.role, goal="g", backstory="b")

class Planner:
    def __init__(self, name):
        self.name = name
        self.agent = create_react_agent("m", [], name=self.name)

class Flow:
    def __init__(self, name):
        self.name = name
        g = StateGraph(dict)
        g.add_node("step", step)
        self.graph = g.compile(name=self.name)

class Plain:
    def __init__(self):
        self.agent = Agent(instructions="x")

    def helper(self):
        return Agent(name=self.label)
`)
	var got []string
	for _, a := range f.Agents {
		got = append(got, a.Name)
	}
	sort.Strings(got)
	want := []string{"Flow", "Plain", "Planner", "Researcher", "helper", "named-bot"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("names %v, want %v", got, want)
	}
}

// TestGuardsOnBindingsAndReturns: the conditions of the ifs around a
// binding or a return are kept, with `if c: return` guarding what follows
// by not c.
func TestGuardsOnBindingsAndReturns(t *testing.T) {
	f := parse(t, `
def f(names=None, extra=False):
    tools = {"a": 1}
    if extra and "b" in names:
        tools.update({"b": 2})
    elif not extra:
        pass
    if names is not None:
        return [tools[n] for n in names]
    return list(tools.values())
`)
	fn := funcNamed(f, "f")
	var upd *extract.Binding
	for _, b := range fn.Scope.Bindings["tools"] {
		if b.Kind == extract.BindAppend {
			upd = b
		}
	}
	if upd == nil || len(upd.Guards) != 1 || upd.Guards[0].Neg || upd.Guards[0].Cond.Kind != extract.ExprBoolOp || upd.Guards[0].Cond.Str != "and" {
		t.Fatalf("update guards = %+v", upd)
	}
	if in := upd.Guards[0].Cond.Elems[1]; in.Kind != extract.ExprCompare || in.Str != "in" {
		t.Errorf("second operand = %+v", in)
	}
	if len(fn.ReturnGuards) != 2 {
		t.Fatalf("return guards = %+v", fn.ReturnGuards)
	}
	first, second := fn.ReturnGuards[0], fn.ReturnGuards[1]
	if len(first) != 1 || first[0].Neg || first[0].Cond.Str != "is not" {
		t.Errorf("first return guards = %+v", first)
	}
	if len(second) != 1 || !second[0].Neg || second[0].Cond.Str != "is not" {
		t.Errorf("second return guards = %+v (after `if c: return`, not c)", second)
	}
	if comp := fn.ReturnExprs[0]; comp.Kind != extract.ExprComp || len(comp.Elems) != 2 || comp.Name != "n" {
		t.Errorf("comprehension = %+v", comp)
	}
}
