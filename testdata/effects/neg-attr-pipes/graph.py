from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from chains import Chains


class State(TypedDict):
    text: str
    summary: str


class Nodes:
    def __init__(self):
        self.chains = Chains()

    def summarise(self, state: State):
        return {"summary": self.chains.summarise.invoke({"text": state["text"]})}


nodes = Nodes()
builder = StateGraph(State)
builder.add_node("summarise", nodes.summarise)
builder.add_edge(START, "summarise")
builder.add_edge("summarise", END)
graph = builder.compile()
