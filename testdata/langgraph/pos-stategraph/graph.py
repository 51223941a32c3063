import subprocess
from typing import Annotated, TypedDict

import requests
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition


class State(TypedDict):
    messages: Annotated[list, add_messages]
    command: str


@tool
def fetch(url: str) -> str:
    """Fetch a URL and return its text."""
    return requests.get(url, timeout=10).text


@tool
def read_notes(name: str) -> str:
    """Read one of the user's notes."""
    with open(f"notes/{name}.md", encoding="utf-8") as fh:
        return fh.read()


@tool
def run_command(command: str) -> str:
    """Run a maintenance command."""
    return subprocess.check_output(command, shell=True, text=True)


tools = [fetch, read_notes, run_command]
llm = ChatOpenAI(model="gpt-4o").bind_tools(tools)


def chatbot(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


def deploy(state: State):
    out = subprocess.run(state["command"], shell=True, capture_output=True, text=True)
    return {"messages": [out.stdout]}


builder = StateGraph(State)
builder.add_node("chatbot", chatbot)
builder.add_node("tools", ToolNode(tools))
builder.add_node("deploy", deploy)
builder.add_edge(START, "chatbot")
builder.add_conditional_edges("chatbot", tools_condition)
builder.add_edge("tools", "chatbot")
builder.add_edge("chatbot", "deploy")
builder.add_edge("deploy", END)
ops_graph = builder.compile(checkpointer=InMemorySaver(), interrupt_before=["deploy"])
