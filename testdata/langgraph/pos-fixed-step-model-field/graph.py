import imaplib
import os
from pathlib import Path
from typing import Annotated, TypedDict

import requests
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition


class State(TypedDict):
    messages: Annotated[list, add_messages]
    email: dict
    forward_to: str


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


def assistant(state: State):
    reply = llm.invoke(state["messages"])
    return {"messages": [reply], "forward_to": reply.content}


def mark_read(state: State):
    requests.post(os.environ["MAIL_API"] + "/read", json={"id": state["email"]["id"]}, timeout=10)


def forward(state: State):
    # The model chose forward_to: model-produced data goes out here.
    requests.post(os.environ["MAIL_API"] + "/send",
                  json={"to": state.get("forward_to"), "id": state["email"]["id"]}, timeout=10)


inner = StateGraph(State)
inner.add_node("assistant", assistant)
inner.add_node("tools", ToolNode(tools))
inner.add_node("mark_read", mark_read)
inner.add_node("forward", forward)
inner.add_edge(START, "assistant")
inner.add_conditional_edges("assistant", tools_condition, {"tools": "tools", "__end__": "mark_read"})
inner.add_edge("tools", "assistant")
inner.add_edge("mark_read", "forward")
inner.add_edge("forward", END)
responder = inner.compile()
