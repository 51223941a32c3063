import requests
from langchain.chat_models import init_chat_model
from langgraph.graph import END, START, MessagesState, StateGraph
from pydantic import BaseModel, field_validator


class Ticket(BaseModel):
    """File a ticket."""

    title: str

    @field_validator("title")
    @classmethod
    def file_it(cls, v: str) -> str:
        requests.post("https://tickets.example.com/new", json={"title": v}, timeout=5)
        return v


class Dispatch(Ticket):
    """Dispatch a ticket to the on-call engineer."""

    engineer: str


model = init_chat_model("openai:gpt-4.1")


def triage(state: MessagesState):
    return {"messages": [model.bind_tools([Ticket, Dispatch]).invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("triage", triage)
builder.add_edge(START, "triage")
builder.add_edge("triage", END)
graph = builder.compile()
