package gate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/extract/python"
	"github.com/acg-dev/acg/extract/typescript"
	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/lsp/gate"
	"github.com/acg-dev/acg/policy"
)

// analyze scans texts as `acg scan` would.
func analyze(t *testing.T, files map[string]string) (*incremental.Snapshot, *incremental.Result) {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap, _, err := incremental.Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return snap, snap.Analyze()
}

func finding(t *testing.T, res *incremental.Result, rule, agent string) *policy.Finding {
	t.Helper()
	for _, f := range res.Findings {
		if f.Rule == rule && f.Agent == agent {
			return f
		}
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Agent)
	}
	t.Fatalf("no %s finding on %s; findings: %v", rule, agent, got)
	return nil
}

func request(snap *incremental.Snapshot, res *incremental.Result, f *policy.Finding, sinks []string) gate.Request {
	req := gate.Request{AgentID: f.AgentID, AgentPath: gate.AgentPath(res.Graph, f.AgentID),
		Tools: gate.ToolsFor(res.Graph, f.AgentID, sinks), Files: map[string]gate.File{}}
	for _, p := range append([]string{req.AgentPath}, paths(req.Tools)...) {
		if file := snap.File(p); file != nil {
			req.Files[p] = gate.File{Path: p, Src: file.Src}
		}
	}
	return req
}

func paths(ts []gate.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Path)
	}
	return out
}

func apply(src string, edits []gate.Edit) string {
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		src = src[:e.Start] + e.Text + src[e.End:]
	}
	return src
}

// check plans the fix for a finding and verifies what every fix must do:
// the new code parses, the gated tools leave every finding, planning again
// adds nothing, and (when want is given) the text is exactly as expected.
func check(t *testing.T, files map[string]string, rule, agent string, sinks func(*policy.Finding) []string, title string, want map[string]string) {
	t.Helper()
	snap, res := analyze(t, files)
	f := finding(t, res, rule, agent)
	ids := f.SinkIDs
	if sinks != nil {
		ids = sinks(f)
	}
	fix, err := gate.Plan(request(snap, res, f, ids))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if title != "" && fix.Title != title {
		t.Errorf("title %q, want %q", fix.Title, title)
	}
	fixed := map[string]string{}
	for p, text := range files {
		fixed[p] = text
	}
	for p, es := range fix.Edits {
		for i := 1; i < len(es); i++ {
			if es[i].Start < es[i-1].End {
				t.Fatalf("%s: overlapping edits %v", p, es)
			}
		}
		fixed[p] = apply(files[p], es)
		parse := func(ctx context.Context, src []byte) (*sitter.Tree, error) { return python.Parse(ctx, src, nil) }
		if incremental.Kind(p) == incremental.KindTypeScript {
			parse = func(ctx context.Context, src []byte) (*sitter.Tree, error) { return typescript.Parse(ctx, p, src, nil) }
		}
		tree, err := parse(context.Background(), []byte(fixed[p]))
		if err != nil || tree.RootNode().HasError() {
			t.Fatalf("%s does not parse after the fix:\n%s", p, fixed[p])
		}
	}
	for p, w := range want {
		if fixed[p] != w {
			t.Errorf("%s after the fix:\n%s\nwant:\n%s", p, fixed[p], w)
		}
	}
	snap2, res2 := analyze(t, fixed)
	for _, g := range res2.Findings {
		for _, id := range ids {
			if slices.Contains(g.SinkIDs, id) {
				t.Errorf("after the fix %s still names %s as an ungated action", g.Rule, id)
			}
		}
	}
	if f2 := findingOrNil(res2, rule, agent); f2 != nil && sinks == nil {
		t.Errorf("the %s finding on %s did not clear", rule, agent)
	}
	// Idempotent: the fixed code gets no second gate.
	var again []string
	for _, id := range ids {
		if res2.Graph.Tools[id] != nil {
			again = append(again, id)
		}
	}
	if f3, err := gate.Plan(request(snap2, res2, f, again)); err == nil {
		t.Errorf("planning again on the fixed code gave edits: %+v", f3.Edits)
	} else if !errors.Is(err, gate.ErrGated) {
		t.Errorf("planning again: %v, want ErrGated", err)
	}
}

func findingOrNil(res *incremental.Result, rule, agent string) *policy.Finding {
	for _, f := range res.Findings {
		if f.Rule == rule && f.Agent == agent {
			return f
		}
	}
	return nil
}

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".py") {
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			out[e.Name()] = string(b)
		}
	}
	return out
}

// TestInboxFixIsInboxFixed: the quick fix on the demo gives exactly the
// hand-written fixed demo, for both findings.
func TestInboxFixIsInboxFixed(t *testing.T) {
	before, after := readDir(t, "../../testdata/inbox"), readDir(t, "../../testdata/inbox-fixed")
	for _, rule := range []string{"missing-approval", "rule-of-two"} {
		t.Run(rule, func(t *testing.T) {
			check(t, before, rule, "inbox_assistant", nil, "Require human approval before send_http (interrupt())", after)
		})
	}
}

const lcHead = `"""Research helper."""
import os

import requests
from langchain.agents import create_agent
from langchain_core.tools import tool


@tool
def fetch(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@tool
def secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@tool
def post(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text

`

func TestFrameworkShapes(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		rule  string
		agent string
		want  map[string]string
	}{{
		name:  "create_agent gets HumanInTheLoopMiddleware and a checkpointer",
		files: map[string]string{"a.py": lcHead + `agent = create_agent("openai:gpt-4o", tools=[fetch, secret, post])` + "\n"},
		rule:  "rule-of-two", agent: "agent",
		want: map[string]string{"a.py": strings.Replace(strings.Replace(lcHead,
			"from langchain.agents import create_agent\n", "from langchain.agents import create_agent\nfrom langchain.agents.middleware import HumanInTheLoopMiddleware\n", 1),
			"from langchain_core.tools import tool\n", "from langchain_core.tools import tool\nfrom langgraph.checkpoint.memory import InMemorySaver\n", 1) +
			`agent = create_agent("openai:gpt-4o", tools=[fetch, secret, post], middleware=[HumanInTheLoopMiddleware(interrupt_on={"post": {"allowed_decisions": ["approve", "edit", "reject"]}})], checkpointer=InMemorySaver())` + "\n"},
	}, {
		name: "create_agent merges into an existing interrupt_on",
		files: map[string]string{"a.py": lcHead + `from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.checkpoint.memory import MemorySaver

agent = create_agent(
    "openai:gpt-4o",
    tools=[fetch, secret, post],
    middleware=[HumanInTheLoopMiddleware(interrupt_on={"fetch": False})],
    checkpointer=MemorySaver(),
)
`},
		rule: "rule-of-two", agent: "agent",
		want: map[string]string{"a.py": lcHead + `from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.checkpoint.memory import MemorySaver

agent = create_agent(
    "openai:gpt-4o",
    tools=[fetch, secret, post],
    middleware=[HumanInTheLoopMiddleware(interrupt_on={"fetch": False, "post": {"allowed_decisions": ["approve", "edit", "reject"]}})],
    checkpointer=MemorySaver(),
)
`},
	}, {
		name: "create_agent appends to a middleware list, one item per line",
		files: map[string]string{"a.py": lcHead + `from langchain.agents.middleware import ToolCallLimitMiddleware

agent = create_agent(
    "openai:gpt-4o",
    tools=[fetch, secret, post],
    middleware=[
        ToolCallLimitMiddleware(run_limit=5)
    ],
)
`},
		rule: "rule-of-two", agent: "agent",
		want: map[string]string{"a.py": strings.Replace(lcHead, "from langchain_core.tools import tool\n",
			"from langchain_core.tools import tool\nfrom langgraph.checkpoint.memory import InMemorySaver\n", 1) +
			`from langchain.agents.middleware import ToolCallLimitMiddleware, HumanInTheLoopMiddleware

agent = create_agent(
    "openai:gpt-4o",
    tools=[fetch, secret, post],
    middleware=[
        ToolCallLimitMiddleware(run_limit=5),
        HumanInTheLoopMiddleware(interrupt_on={"post": {"allowed_decisions": ["approve", "edit", "reject"]}})
    ],
    checkpointer=InMemorySaver(),
)
`},
	}, {
		name: "OpenAI function_tool gets needs_approval=True",
		files: map[string]string{"o.py": `import os

import requests
from agents import Agent, function_tool


@function_tool
def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@function_tool
def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@function_tool(name_override="post")
def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


@function_tool(needs_approval=False)
def run(cmd: str) -> str:
    """Run a command."""
    return os.popen(cmd).read()


agent = Agent(name="helper", tools=[fetch_page, read_secret, post_data, run])
`},
		rule: "rule-of-two", agent: "helper",
		want: map[string]string{"o.py": `import os

import requests
from agents import Agent, function_tool


@function_tool
def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@function_tool
def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@function_tool(name_override="post", needs_approval=True)
def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


@function_tool(needs_approval=True)
def run(cmd: str) -> str:
    """Run a command."""
    return os.popen(cmd).read()


agent = Agent(name="helper", tools=[fetch_page, read_secret, post_data, run])
`},
	}, {
		name: "PydanticAI tools get requires_approval=True (bare and called decorators, Tool(...))",
		files: map[string]string{"p.py": `import os

import requests
from pydantic_ai import Agent, RunContext, Tool


def run(cmd: str) -> str:
    """Run a command."""
    return os.popen(cmd).read()


helper = Agent("openai:gpt-5", name="helper", tools=[Tool(run, takes_ctx=False)])


@helper.tool_plain
def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@helper.tool_plain
def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@helper.tool(name="post")
def post_data(ctx: RunContext[None], url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


@helper.tool_plain
def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text
`},
		rule: "rule-of-two", agent: "helper",
		want: map[string]string{"p.py": `import os

import requests
from pydantic_ai import Agent, RunContext, Tool


def run(cmd: str) -> str:
    """Run a command."""
    return os.popen(cmd).read()


helper = Agent("openai:gpt-5", name="helper", tools=[Tool(run, takes_ctx=False, requires_approval=True)])


@helper.tool_plain
def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@helper.tool_plain
def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@helper.tool(name="post", requires_approval=True)
def post_data(ctx: RunContext[None], url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


@helper.tool_plain(requires_approval=True)
def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text
`},
	}, {
		name: "Google ADK tools get require_confirmation=True (FunctionTool(...) and plain functions wrapped)",
		files: map[string]string{"a.py": `import os

import requests
from google.adk.agents import Agent
from google.adk.tools import FunctionTool


def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text


helper = Agent(name="helper", model="gemini-2.5-flash", tools=[fetch_page, read_secret, post_data, FunctionTool(post_form)])
`},
		rule: "rule-of-two", agent: "helper",
		want: map[string]string{"a.py": `import os

import requests
from google.adk.agents import Agent
from google.adk.tools import FunctionTool


def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text


helper = Agent(name="helper", model="gemini-2.5-flash", tools=[fetch_page, read_secret, FunctionTool(post_data, require_confirmation=True), FunctionTool(post_form, require_confirmation=True)])
`},
	}, {
		name: "Google ADK: wrapping a plain function imports FunctionTool",
		files: map[string]string{"a.py": `import os

import requests
from google.adk.agents import Agent


def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text


helper = Agent(name="helper", model="gemini-2.5-flash", tools=[fetch_page, read_secret, post_data, post_form])
`},
		rule: "rule-of-two", agent: "helper",
		want: map[string]string{"a.py": `import os

import requests
from google.adk.agents import Agent
from google.adk.tools import FunctionTool


def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text


helper = Agent(name="helper", model="gemini-2.5-flash", tools=[fetch_page, read_secret, FunctionTool(post_data, require_confirmation=True), FunctionTool(post_form, require_confirmation=True)])
`},
	}, {
		name: "Agent Framework tools get approval_mode=always_require",
		files: map[string]string{"m.py": `import os

import requests
from agent_framework import Agent, tool
from agent_framework.openai import OpenAIChatClient


@tool
def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@tool
def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@tool(name="post", approval_mode="never_require")
def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


@tool
def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text


helper = Agent(client=OpenAIChatClient(model="gpt-4o-mini"), name="helper", tools=[fetch_page, read_secret, post_data, post_form])
`},
		rule: "rule-of-two", agent: "helper",
		want: map[string]string{"m.py": `import os

import requests
from agent_framework import Agent, tool
from agent_framework.openai import OpenAIChatClient


@tool
def fetch_page(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@tool
def read_secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@tool(name="post", approval_mode="always_require")
def post_data(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


@tool(approval_mode="always_require")
def post_form(url: str, body: str) -> str:
    """Send a form."""
    return requests.post(url, data={"b": body}).text


helper = Agent(client=OpenAIChatClient(model="gpt-4o-mini"), name="helper", tools=[fetch_page, read_secret, post_data, post_form])
`},
	}, {
		name: "StateGraph with a ToolNode: interrupt in the tool, checkpointer on compile()",
		files: map[string]string{"g.py": `import os

import requests
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


@tool
def fetch(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@tool
def secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@tool
def post(url: str, body: str) -> str:
    """Send data."""
    return requests.post(url, data=body).text


def call_model(state):
    return state


builder = StateGraph(dict)
builder.add_node("agent", call_model)
builder.add_node("tools", ToolNode([fetch, secret, post]))
builder.add_edge(START, "agent")
builder.add_conditional_edges("agent", tools_condition)
builder.add_edge("tools", "agent")
graph = builder.compile()
`},
		rule: "rule-of-two", agent: "graph",
		want: map[string]string{"g.py": `import os

import requests
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import interrupt


@tool
def fetch(url: str) -> str:
    """Fetch a page."""
    return requests.get("https://news.example.com/today").text


@tool
def secret() -> str:
    """Read the token."""
    return os.environ["TOKEN"]


@tool
def post(url: str, body: str) -> str:
    """Send data."""
    decision = interrupt({"action": "post", "args": {"url": url, "body": body}})
    if decision.get("type") != "accept":
        return "Rejected by reviewer"
    return requests.post(url, data=body).text


def call_model(state):
    return state


builder = StateGraph(dict)
builder.add_node("agent", call_model)
builder.add_node("tools", ToolNode([fetch, secret, post]))
builder.add_edge(START, "agent")
builder.add_conditional_edges("agent", tools_condition)
builder.add_edge("tools", "agent")
graph = builder.compile(checkpointer=InMemorySaver())
`},
	}, {
		name:  "single quotes, tabs, an existing langgraph.types import, a local named decision",
		files: map[string]string{"q.py": "import os\nimport requests\nfrom langchain_core.tools import tool\nfrom langgraph.prebuilt import create_react_agent\nfrom langgraph.types import Command\n\n\n@tool\ndef fetch(url: str) -> str:\n\treturn requests.get('https://news.example.com/today').text\n\n\n@tool\ndef secret() -> str:\n\treturn os.environ['TOKEN']\n\n\n@tool\ndef post(url: str, *parts: str, **extra) -> str:\n\tdecision = 'x'\n\treturn requests.post(url, data=decision).text\n\n\nagent = create_react_agent('m', [fetch, secret, post], checkpointer=None)\n"},
		rule:  "rule-of-two", agent: "agent",
		want: map[string]string{"q.py": "import os\nimport requests\nfrom langchain_core.tools import tool\nfrom langgraph.checkpoint.memory import InMemorySaver\nfrom langgraph.prebuilt import create_react_agent\nfrom langgraph.types import Command, interrupt\n\n\n@tool\ndef fetch(url: str) -> str:\n\treturn requests.get('https://news.example.com/today').text\n\n\n@tool\ndef secret() -> str:\n\treturn os.environ['TOKEN']\n\n\n@tool\ndef post(url: str, *parts: str, **extra) -> str:\n\tapproval = interrupt({'action': 'post', 'args': {'url': url, 'parts': parts, **extra}})\n\tif approval.get('type') != 'accept':\n\t\treturn 'Rejected by reviewer'\n\tdecision = 'x'\n\treturn requests.post(url, data=decision).text\n\n\nagent = create_react_agent('m', [fetch, secret, post], checkpointer=InMemorySaver())\n"},
	}, {
		name: "a prebuilt tool with an approval argument in the catalog",
		files: map[string]string{"s.py": `from langchain_community.tools import ShellTool
from langgraph.prebuilt import create_react_agent

agent = create_react_agent("m", tools=[ShellTool()])
`},
		rule: "missing-approval", agent: "agent",
		want: map[string]string{"s.py": `from langchain_community.tools import ShellTool
from langgraph.prebuilt import create_react_agent

agent = create_react_agent("m", tools=[ShellTool(ask_human_input=True)])
`},
	}, {
		name: "prebuilt tools without one: interrupt_before the tools node",
		files: map[string]string{"r.py": `from langchain_community.tools import ReadFileTool
from langchain_community.tools.requests.tool import RequestsPostTool
from langchain_community.utilities.requests import TextRequestsWrapper
from langgraph.prebuilt import create_react_agent

agent = create_react_agent(
    "m",
    tools=[ReadFileTool(), RequestsPostTool(requests_wrapper=TextRequestsWrapper(), allow_dangerous_requests=True)],
)
`},
		rule: "rule-of-two", agent: "agent",
		want: map[string]string{"r.py": `from langchain_community.tools import ReadFileTool
from langchain_community.tools.requests.tool import RequestsPostTool
from langchain_community.utilities.requests import TextRequestsWrapper
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent

agent = create_react_agent(
    "m",
    tools=[ReadFileTool(), RequestsPostTool(requests_wrapper=TextRequestsWrapper(), allow_dangerous_requests=True)],
    interrupt_before=["tools"],
    checkpointer=InMemorySaver(),
)
`},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check(t, c.files, c.rule, c.agent, nil, "", c.want)
		})
	}
}

// TestSeveralActions: one fix per ungated action tool, and one for all of
// them that clears the rule-of-two finding.
func TestSeveralActions(t *testing.T) {
	files := readDir(t, "../../testdata/inbox")
	files["tools.py"] += `

@tool
def delete_notes() -> str:
    """Delete the notes."""
    NOTES.unlink()
    return "deleted"
`
	files["agent.py"] = strings.Replace(files["agent.py"], "send_http]", "send_http, delete_notes]", 1)
	files["agent.py"] = strings.Replace(files["agent.py"], "send_http\n", "send_http, delete_notes\n", 1)
	_, res := analyze(t, files)
	f := finding(t, res, "rule-of-two", "inbox_assistant")
	if len(f.SinkIDs) != 2 {
		t.Fatalf("want two ungated action tools, got %v", f.SinkIDs)
	}
	for _, id := range f.SinkIDs {
		t.Run("one "+id, func(t *testing.T) {
			check(t, files, "rule-of-two", "inbox_assistant", func(*policy.Finding) []string { return []string{id} }, "", nil)
		})
	}
	t.Run("all", func(t *testing.T) {
		check(t, files, "rule-of-two", "inbox_assistant", nil,
			"Require human approval before every outward action: delete_notes, send_http (interrupt())", nil)
	})
}

// TestRefusals: no fix where it would add a second gate or cannot be made.
func TestRefusals(t *testing.T) {
	files := readDir(t, "../../testdata/inbox")
	files["tools.py"] = strings.Replace(files["tools.py"], "from langchain_core.tools import tool\n",
		"from langchain_core.tools import tool\nfrom langgraph.types import interrupt\n", 1)
	files["tools.py"] = strings.Replace(files["tools.py"], `    resp = requests.post(url, data=body, timeout=10)`,
		"    if len(body) > 100:\n        interrupt(\"long body\")\n    resp = requests.post(url, data=body, timeout=10)", 1)
	snap, res := analyze(t, files)
	f := finding(t, res, "missing-approval", "inbox_assistant")
	_, err := gate.Plan(request(snap, res, f, f.SinkIDs))
	if !errors.Is(err, gate.ErrGated) {
		t.Fatalf("a conditional gate: Plan gave %v, want ErrGated", err)
	}
}

// TestImportPoint places a new import after a module docstring and
// __future__ imports, or in alphabetical order in the last group.
func TestImportPoint(t *testing.T) {
	cases := []struct{ src, want string }{
		{"\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n\nX = 1\n", "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nfrom langgraph.types import interrupt\n\nX = 1\n"},
		{"#!/usr/bin/env python\n\"\"\"Doc.\"\"\"\nX = 1\n", "#!/usr/bin/env python\n\"\"\"Doc.\"\"\"\nfrom langgraph.types import interrupt\nX = 1\n"},
		{"X = 1\n", "from langgraph.types import interrupt\n\nX = 1\n"},
		{"import os\n\nimport zlib\nimport abc\n", "import os\n\nimport zlib\nimport abc\nfrom langgraph.types import interrupt\n"},
		{"import os\nfrom a import b\nfrom z import y\n", "import os\nfrom a import b\nfrom langgraph.types import interrupt\nfrom z import y\n"},
		{"from .local import x\n", "from langgraph.types import interrupt\nfrom .local import x\n"},
		{"from langgraph.types import (\n    Command,\n    Send,\n)\n", "from langgraph.types import (\n    Command,\n    Send, interrupt,\n)\n"},
		{"from langgraph.types import interrupt as ask\n", "from langgraph.types import interrupt as ask\n"},
	}
	for _, c := range cases {
		got := gate.AddImportForTest(c.src, "langgraph.types", "interrupt")
		if got != c.want {
			t.Errorf("import into\n%s\ngave\n%s\nwant\n%s", c.src, got, c.want)
		}
	}
}

// TestLineDiff: the edits turn the old text into the new one.
func TestLineDiff(t *testing.T) {
	cases := [][2]string{
		{"a\nb\nc\n", "a\nx\nb\nc\n"},
		{"a\nb\nc\n", "a\nc\n"},
		{"a\nb\nc", "a\nb\nc\nd"},
		{"", "x\n"},
		{"x\n", ""},
		{"a\nb\nc\nd\ne\n", "z\na\nc\nd\ny\ne\nw\n"},
	}
	for _, c := range cases {
		es := gate.LineDiffForTest(c[0], c[1])
		sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
		if got := apply(c[0], es); got != c[1] {
			t.Errorf("diff %q → %q applied gives %q (edits %+v)", c[0], c[1], got, es)
		}
	}
}

// TestCrewAIGetsAHook: a crew's action is gated with CrewAI's own
// pre-tool-call hook, never LangGraph's interrupt(), whatever library the
// tool comes from; the hook clears the finding.
func TestCrewAIGetsAHook(t *testing.T) {
	head := `import smtplib

from crewai import Agent, Crew, Task
from crewai_tools import FileReadTool, SerperDevTool
`
	body := `

def send_email(to: str, body: str) -> str:
    """Send an e-mail."""
    with smtplib.SMTP("smtp.example.com") as smtp:
        smtp.sendmail("crew@example.com", to, body)
    return "sent"


assistant = Agent(role="Assistant", goal="g", backstory="b", tools=[SerperDevTool(), FileReadTool(), send_email])
crew = Crew(agents=[assistant], tasks=[Task(description="d", expected_output="e", agent=assistant)])
`
	hook := `


@before_tool_call
def ask_before_send_email(context):
    """Ask a human before send_email runs; block it unless they answer yes."""
    if context.tool_name == "send_email":
        answer = context.request_human_input(prompt="Allow send_email? [y/N]")
        if answer.strip().lower() not in ("y", "yes"):
            return False
    return None
`
	for _, c := range []struct{ name, imp, deco string }{
		{"crewai tool", "from crewai.tools import tool\n", "@tool\n"},
		{"langchain tool", "from langchain_core.tools import tool\n", "@tool\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.imp + strings.Replace(body, "\ndef send_email", "\n"+c.deco+"def send_email", 1)
			want := strings.Replace(head, "from crewai import Agent, Crew, Task\n", "from crewai import Agent, Crew, Task\nfrom crewai.hooks import before_tool_call\n", 1) +
				c.imp + strings.TrimRight(strings.Replace(body, "\ndef send_email", "\n"+c.deco+"def send_email", 1), "\n") + hook
			check(t, map[string]string{"crew.py": src}, "rule-of-two", "Assistant", nil,
				"Require human approval before send_email (before_tool_call hook)", map[string]string{"crew.py": want})
		})
	}
}
