import imaplib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Annotated, TypedDict

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition


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


tools = [read_email, read_notes]
llm = ChatOpenAI(model="gpt-4o").bind_tools(tools)


def refresh(state: State):
    # A fixed step: the graph always runs it, and nothing the model wrote
    # reaches these calls.
    shutil.rmtree(".cache/inbox", ignore_errors=True)
    subprocess.run(["git", "pull", "--ff-only"], check=False)
    return {}


def publish(state: State):
    # Also a fixed step, but the model's last message goes out in it.
    subprocess.run(["gh", "issue", "comment", "1", "--body", state["messages"][-1].content], check=True)
    return {}


def assistant(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


builder = StateGraph(State)
builder.add_node("refresh", refresh)
builder.add_node("assistant", assistant)
builder.add_node("tools", ToolNode(tools))
builder.add_node("publish", publish)
builder.add_edge(START, "refresh")
builder.add_edge("refresh", "assistant")
builder.add_conditional_edges("assistant", tools_condition, {"tools": "tools", "__end__": "publish"})
builder.add_edge("publish", END)
builder.add_edge("tools", "assistant")
publisher = builder.compile()
