import imaplib
import os
import smtplib
from email.message import EmailMessage
from pathlib import Path
from typing import Annotated, Literal, TypedDict

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition
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


tools = [read_email, read_notes]
llm = ChatOpenAI(model="gpt-4o").bind_tools(tools)


def draft(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


def after_draft(
    state: State,
) -> Literal[
    "tools",
    "review_reply",
    "review_invite",
]:
    call = state["messages"][-1].tool_calls[0]
    if call["name"] in ("read_email", "read_notes"):
        return "tools"
    if call["name"] == "Invite":
        return "review_invite"
    return "review_reply"


def review_reply(state: State):
    interrupt({"review": "reply", "body": state["messages"][-1].content})
    return {}


def review_invite(state: State):
    interrupt({"review": "invite", "body": state["messages"][-1].content})
    return {}


def human(state: State):
    pass


def after_human(state: State) -> Literal[
    "send_reply",
    "send_invite"
]:
    if state["messages"][-1].tool_calls[0]["name"] == "Invite":
        return "send_invite"
    return "send_reply"


def send(body: str):
    msg = EmailMessage()
    msg.set_content(body)
    with smtplib.SMTP(os.environ["SMTP_HOST"]) as smtp:
        smtp.send_message(msg)


def send_reply(state: State):
    send(state["messages"][-1].content)


def send_invite(state: State):
    send("Invitation: " + state["messages"][-1].content)


builder = StateGraph(State)
builder.add_node(draft)
builder.add_node("tools", ToolNode(tools))
builder.add_node(review_reply)
builder.add_node(review_invite)
builder.add_node(human)
builder.add_node(send_reply)
builder.add_node(send_invite)
builder.add_edge(START, "draft")
builder.add_conditional_edges("draft", after_draft)
builder.add_edge("tools", "draft")
builder.add_edge("review_reply", "human")
builder.add_edge("review_invite", "human")
builder.add_conditional_edges("human", after_human)
builder.add_edge("send_reply", END)
builder.add_edge("send_invite", "draft")
assistant_graph = builder.compile(checkpointer=InMemorySaver())
