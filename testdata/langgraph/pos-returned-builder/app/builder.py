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


TOOLS = [fetch, read_notes, send_http]


def build_graph():
    llm = ChatOpenAI(model="gpt-4o").bind_tools(TOOLS)

    def chatbot(state: State):
        return {"messages": [llm.invoke(state["messages"])]}

    builder = StateGraph(State)
    builder.add_node("chatbot", chatbot)
    builder.add_node("tools", ToolNode(TOOLS))
    builder.add_edge(START, "chatbot")
    builder.add_conditional_edges("chatbot", tools_condition)
    builder.add_edge("tools", "chatbot")
    return builder
