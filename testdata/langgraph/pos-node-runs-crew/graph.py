from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from mail_crew import PublishCrew, ReadingCrew


class State(TypedDict):
    request: str
    notes: str
    result: str


def read(state: State):
    out = ReadingCrew().crew().kickoff(inputs={"request": state["request"]})
    return {"notes": out.raw}


builder = StateGraph(State)
builder.add_node("read", read)
builder.add_node("publish", PublishCrew().kickoff)
builder.add_edge(START, "read")
builder.add_edge("read", "publish")
builder.add_edge("publish", END)
graph = builder.compile()
