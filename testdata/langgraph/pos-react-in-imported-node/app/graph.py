from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from app.nodes import research


class State(TypedDict):
    question: str
    answer: str


builder = StateGraph(State)
builder.add_node("research", research)
builder.add_edge(START, "research")
builder.add_edge("research", END)
workflow = builder.compile()
