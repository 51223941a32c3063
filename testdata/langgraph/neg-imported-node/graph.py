from typing import TypedDict

import requests
from langgraph.graph import END, START, StateGraph

from nodes import progress, remember


class State(TypedDict):
    question: str
    answer: str


def fetch_notes(state: State):
    return {"answer": requests.get("https://example.com/release-notes.txt", timeout=10).text}


def answer(state: State):
    return {"answer": state["question"].strip()}


builder = StateGraph(State)
builder.add_node(remember)
builder.add_node("fetch_notes", fetch_notes)
builder.add_node("answer", answer)
builder.add_node("progress", progress)
builder.add_edge(START, "remember")
builder.add_edge("remember", "fetch_notes")
builder.add_edge("fetch_notes", "answer")
builder.add_edge("answer", "progress")
builder.add_edge("progress", END)
graph = builder.compile()
