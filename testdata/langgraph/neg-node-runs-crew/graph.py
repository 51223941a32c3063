from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from research_crew import ResearchCrew


class State(TypedDict):
    topic: str
    sources: str
    summary: str


def summarise(state: State):
    return {"summary": state["sources"][:500]}


builder = StateGraph(State)
builder.add_node("research", ResearchCrew().kickoff)
builder.add_node("summarise", summarise)
builder.add_edge(START, "research")
builder.add_edge("research", "summarise")
builder.add_edge("summarise", END)
graph = builder.compile()
