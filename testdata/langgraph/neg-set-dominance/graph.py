import imaplib
import os
import smtplib
from email.message import EmailMessage
from pathlib import Path
from typing import Annotated, TypedDict

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command, interrupt


class State(TypedDict):
    messages: Annotated[list, add_messages]
    to: str
    body: str


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
    return {"messages": [llm.invoke(state["messages"])]}


def choose(state: State):
    if state["messages"][-1].tool_calls:
        return "tools"
    if state["to"].endswith("@example.com"):
        return "draft_reply"
    return "draft_forward"


def draft_reply(state: State):
    answer = interrupt({"review": "reply", "body": state["messages"][-1].content})
    return {"body": answer["body"]}


def draft_forward(state: State) -> Command:
    answer = interrupt({"review": "forward", "body": state["messages"][-1].content})
    return Command(goto="send", update={"body": answer["body"]})


def send(state: State):
    msg = EmailMessage()
    msg["To"] = state["to"]
    msg.set_content(state["body"])
    with smtplib.SMTP(os.environ["SMTP_HOST"]) as smtp:
        smtp.send_message(msg)
    return {}


builder = StateGraph(State)
builder.add_node("assistant", assistant)
builder.add_node("tools", ToolNode(tools))
builder.add_node("draft_reply", draft_reply)
builder.add_node("draft_forward", draft_forward)
builder.add_node("send", send)
builder.add_edge(START, "assistant")
builder.add_conditional_edges("assistant", choose, ["tools", "draft_reply", "draft_forward"])
builder.add_edge("tools", "assistant")
builder.add_edge("draft_reply", "send")
builder.add_edge("send", END)
mailer = builder.compile(checkpointer=InMemorySaver())
