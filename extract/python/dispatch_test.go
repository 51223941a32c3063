package python

import (
	"strings"
	"testing"
)

const dispatchHead = `
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

@tool
def read_notes() -> str:
    """Read."""
    return "n"

@tool
def send_http(url: str) -> str:
    """Send."""
    return url

tools = [read_notes, send_http]
tools_by_name = {t.name: t for t in tools}
llm = Chat().bind_tools(tools)

def call_model(state):
    return {"messages": [llm.invoke(state["messages"])]}
`

const dispatchTail = `
builder = StateGraph(dict)
builder.add_node("model", call_model)
builder.add_node("tools", run_tools)
builder.add_edge(START, "model")
builder.add_edge("model", "tools")
builder.add_edge("tools", "model")
graph = builder.compile()
`

// TestDispatchInterruptGatesNamedTools: a tool node that interrupts for
// some tool names before it invokes the call gates exactly those names,
// in that node; anything else in it stays ungated.
func TestDispatchInterruptGatesNamedTools(t *testing.T) {
	cases := []struct {
		name, body string
		want       string // "" no approval; "all"; "all-except:x"; else the gated names
	}{
		{"no interrupt before the invoke", `
def run_tools(state):
    for call in state["messages"][-1].tool_calls:
        out = tools_by_name[call["name"]].invoke(call["args"])
        if call["name"] in NEEDS_REVIEW:
            interrupt(out)
    return {}
NEEDS_REVIEW = {"send_http"}
`, ""},
		{"interrupt under another condition", `
def run_tools(state):
    for call in state["messages"][-1].tool_calls:
        if state.get("strict"):
            interrupt(call)
        tools_by_name[call["name"]].invoke(call["args"])
    return {}
`, ""},
		{"set not literal", `
def run_tools(state):
    for call in state["messages"][-1].tool_calls:
        if call["name"] in load_names():
            interrupt(call)
        tools_by_name[call["name"]].invoke(call["args"])
    return {}
`, ""},
		{"module-level set", `
NEEDS_REVIEW = {"send_http"}
def run_tools(state):
    for call in state["messages"][-1].tool_calls:
        if call["name"] in NEEDS_REVIEW:
            decision = interrupt({"action": call["name"], "args": call["args"]})
            if decision != "approve":
                continue
        observation = tools_by_name[call["name"]].invoke(call["args"])
    return {}
`, "send_http"},
		{"module-level tuple through frozenset", `
NEEDS_REVIEW = frozenset(("send_http", "read_notes"))
def run_tools(state):
    for call in state["messages"][-1].tool_calls:
        if call["name"] in NEEDS_REVIEW:
            interrupt(call)
        tools_by_name[call["name"]].invoke(call["args"])
    return {}
`, "read_notes,send_http"},
		{"inline list and ==", `
def run_tools(state):
    for tool_call in state["messages"][-1].tool_calls:
        name = tool_call["name"]
        if name == "send_http" or name in ["delete_all"]:
            interrupt(tool_call)
        tool = tools_by_name[name]
        tool.invoke(tool_call["args"])
    return {}
`, "delete_all,send_http"},
		{"not in, continue, then interrupt", `
HITL = ["send_http"]
def run_tools(state):
    for tool_call in state["messages"][-1].tool_calls:
        if tool_call["name"] not in HITL:
            tools_by_name[tool_call["name"]].invoke(tool_call["args"])
            continue
        response = interrupt([tool_call])[0]
        if response["type"] == "accept":
            tools_by_name[tool_call["name"]].invoke(tool_call["args"])
    return {}
`, "send_http"},
		{"every call but one", `
def run_tools(state):
    for call in state["messages"][-1].tool_calls:
        if call["name"] != "read_notes":
            interrupt(call)
        tools_by_name[call["name"]].invoke(call["args"])
    return {}
`, "all-except:read_notes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, dispatchHead+tc.body+dispatchTail)
			var got []string
			for _, a := range f.Agents {
				for _, ap := range a.Approvals {
					if ap.Where != "tools" {
						t.Errorf("approval in node %q, want tools", ap.Where)
					}
					switch {
					case ap.All && len(ap.Except) > 0:
						got = append(got, "all-except:"+strings.Join(ap.Except, ","))
					case ap.All:
						got = append(got, "all")
					default:
						got = append(got, strings.Join(ap.Tools, ","))
					}
				}
			}
			if strings.Join(got, ";") != tc.want {
				t.Errorf("approvals %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCommandGotoFromAnnotation: a node that returns Command(goto=var)
// routes where its Command[Literal[...]] annotation says; the graph stays
// closed, so approvals on its paths can be decided.
func TestCommandGotoFromAnnotation(t *testing.T) {
	f := parse(t, `
from typing import Literal
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

def triage(state) -> Command[Literal["respond", "__end__"]]:
    goto = END
    if state["x"]:
        goto = "respond"
    return Command(goto=goto)

def respond(state):
    return {}

b = StateGraph(dict)
b.add_node("triage", triage)
b.add_node("respond", respond)
b.add_edge(START, "triage")
g = b.compile()
`)
	a := f.Agents[0]
	if a.Graph.Open {
		t.Fatal("the annotated Command targets left the graph open")
	}
	if got := strings.Join(a.Graph.Successors("triage"), ","); got != "respond,__end__" {
		t.Errorf("triage goes to %q", got)
	}
}

// TestHITLConfigObjects: interrupt_on values that are config objects
// (InterruptOnConfig(...)) gate their tool like a dict or True does.
func TestHITLConfigObjects(t *testing.T) {
	f := parse(t, `
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware, InterruptOnConfig
a = create_agent("m", tools=[], middleware=[HumanInTheLoopMiddleware(interrupt_on={
    "send": InterruptOnConfig(allowed_decisions=["approve", "reject"]), "read": False})])
`)
	ap := f.Agents[0].Approvals
	if len(ap) != 1 || !ap[0].Covers("send", "tools") || ap[0].Covers("read", "tools") {
		t.Errorf("HITL must gate exactly send: %+v", ap)
	}
}
