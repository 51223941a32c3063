from typing import Annotated, TypedDict

from langgraph.graph import StateGraph
from langgraph.graph.message import add_messages

from app.nodes import call_model, route, tool_node


class State(TypedDict):
    messages: Annotated[list, add_messages]


def create_workflow():
    workflow = StateGraph(State)
    workflow.add_node("model", call_model)
    workflow.add_node("tools", tool_node)
    workflow.set_entry_point("model")
    workflow.add_conditional_edges("model", route, ["tools", "__end__"])
    workflow.add_edge("tools", "model")
    return workflow.compile()
