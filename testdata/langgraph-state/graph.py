"""A two-step pipeline: fetch a page, then act on it."""
import subprocess
from typing import TypedDict

import requests
from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    url: str
    page: str


def report(state: State) -> dict:
    subprocess.run(["logger", state["url"]])
    return {}


def fetch(state: State) -> dict:
    page = requests.get(state["url"], timeout=10).text
    return {"page": page}


def run(state: State) -> dict:
    out = subprocess.run(state["page"], shell=True, capture_output=True, text=True)
    return {"page": out.stdout}


builder = StateGraph(State)
builder.add_node("report", report)
builder.add_node("fetch", fetch)
builder.add_node("run", run)
builder.add_edge(START, "report")
builder.add_edge("report", "fetch")
builder.add_edge("fetch", "run")
builder.add_edge("run", END)
pipeline = builder.compile()
