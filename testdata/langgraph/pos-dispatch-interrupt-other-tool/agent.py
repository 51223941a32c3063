import imaplib
import os
from pathlib import Path
from typing import Annotated, TypedDict

import requests
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import interrupt


class State(TypedDict):
    messages: Annotated[list, add_messages]


@tool
def read_email() -> str:
    """Read the newest message."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    _, data = conn.fetch(b"1", "(RFC822)")
    return data[0][1].decode()


@tool
def read_notes() -> str:
    """Return the user's notes."""
    return Path("notes.md").read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)


tools = [read_email, read_notes, send_http]
tools_by_name = {t.name: t for t in tools}
llm = ChatOpenAI(model="gpt-4o").bind_tools(tools)

# The tools a human reviews before they run: a module-level literal set.
NEEDS_REVIEW = ("read_notes",)


def call_model(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


def run_tools(state: State):
    results = []
    for call in state["messages"][-1].tool_calls:
        if call["name"] in NEEDS_REVIEW:
            decision = interrupt({"action": call["name"], "args": call["args"]})
            if decision != "approve":
                results.append(ToolMessage(content="rejected", tool_call_id=call["id"]))
                continue
        observation = tools_by_name[call["name"]].invoke(call["args"])
        results.append(ToolMessage(content=observation, tool_call_id=call["id"]))
    return {"messages": results}


def route(state: State):
    if state["messages"][-1].tool_calls:
        return "tools"
    return END


builder = StateGraph(State)
builder.add_node("model", call_model)
builder.add_node("tools", run_tools)
builder.add_edge(START, "model")
builder.add_conditional_edges("model", route, ["tools", END])
builder.add_edge("tools", "model")
wrong_tool = builder.compile(checkpointer=InMemorySaver())
