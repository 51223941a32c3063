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
from langgraph.types import Command


class State(TypedDict):
    messages: Annotated[list, add_messages]
    email: dict
    classification: str


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
router = ChatOpenAI(model="gpt-4o-mini")


def parse_email(email: dict):
    return email["from"], email["subject"], email["id"]


def mark_message_read(message_id: str, account: str):
    requests.post(os.environ["MAIL_API"] + "/read", json={"id": message_id, "account": account}, timeout=10)


def assistant(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


def mark_read(state: State, config):
    # A fixed step on the graph's input: the email id was never written by
    # a node, and the account comes from the run's configuration, so
    # nothing the model produced goes out here.
    email = state["email"]
    sender, subject, message_id = parse_email(email)
    mark_message_read(message_id, config["configurable"]["account"])


inner = StateGraph(State)
inner.add_node("assistant", assistant)
inner.add_node("tools", ToolNode(tools))
inner.add_node("mark_read", mark_read)
inner.add_edge(START, "assistant")
inner.add_conditional_edges("assistant", tools_condition, {"tools": "tools", "__end__": "mark_read"})
inner.add_edge("tools", "assistant")
inner.add_edge("mark_read", END)
responder = inner.compile()


def triage(state: State):
    verdict = router.invoke(state["email"]["subject"]).content
    if verdict == "respond":
        update = {"classification": verdict, "messages": [("user", state["email"]["subject"])]}
        goto = "responder"
    else:
        update = {"classification": verdict}
        goto = "mark_read"
    return Command(goto=goto, update=update)


outer = StateGraph(State)
outer.add_node("triage", triage)
outer.add_node("responder", responder)
outer.add_node("mark_read", mark_read)
outer.add_edge(START, "triage")
outer.add_edge("triage", "responder")
outer.add_edge("triage", "mark_read")
outer.add_edge("responder", END)
outer.add_edge("mark_read", END)
inbox = outer.compile()
