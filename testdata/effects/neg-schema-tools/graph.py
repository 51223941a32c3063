from typing import TypedDict

from langchain.chat_models import init_chat_model
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from pydantic import BaseModel, Field


class ConductResearch(BaseModel):
    """Hand a research topic to a researcher."""

    research_topic: str = Field(description="The topic to research.")


class ResearchComplete(BaseModel):
    """Say that the research is done."""


class Outline(TypedDict):
    """The sections of the report."""

    sections: list[str]


class Section(ResearchComplete):
    """One written section."""

    name: str
    content: str


@tool
def think_tool(reflection: str) -> str:
    """Reflect on the progress of the research."""
    return f"Reflection recorded: {reflection}"


model = init_chat_model("openai:gpt-4.1")


def supervisor(state: MessagesState):
    tools = [ConductResearch, ResearchComplete, Outline, think_tool]
    return {"messages": [model.bind_tools(tools).invoke(state["messages"])]}


def writer(state: MessagesState):
    tools = [tool(Section), tool(ResearchComplete)]
    return {"messages": [model.bind_tools(tools).invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("supervisor", supervisor)
builder.add_node("writer", writer)
builder.add_edge(START, "supervisor")
builder.add_edge("supervisor", "writer")
builder.add_edge("writer", END)
graph = builder.compile()
