from typing import TypedDict

from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from tavily import TavilyClient

from clients import make_client


class State(TypedDict):
    question: str
    answer: str


def fetch(query: str, client=TavilyClient()) -> str:
    return str(client.search(query))


@tool
def research(query: str) -> str:
    """Research through a client from another module: not the default's type."""
    return fetch(query, client=make_client())


def recall(state: State, config, memory):
    """`memory` is no parameter LangGraph fills by name: its type is unknown."""
    return {"answer": memory.lookup(state["question"])}


builder = StateGraph(State)
builder.add_node("recall", recall)
builder.add_edge(START, "recall")
builder.add_edge("recall", END)
graph = builder.compile()
