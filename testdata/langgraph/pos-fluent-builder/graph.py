from pathlib import Path
from typing import Annotated, TypedDict

import requests
from langchain_core.messages import AnyMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


@tool
def fetch(url: str) -> str:
    """Fetch a web page."""
    return requests.get(url, timeout=10).text


@tool
def read_notes() -> str:
    """Return the user's private notes."""
    return Path("notes.md").read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)


tools = [fetch, read_notes, send_http]
llm = ChatOpenAI(model="gpt-4o").bind_tools(tools)


def chatbot(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


graph = (
    StateGraph(State)
    .add_node("chatbot", chatbot)
    .add_node("tools", ToolNode(tools))
    .add_edge(START, "chatbot")
    .add_conditional_edges("chatbot", tools_condition)
    .add_edge("tools", "chatbot")
).compile()
