"""A research graph whose tool node runs the model's tool calls through a
helper that guards each call (execute_tool_safely(tool, args)), the shape
of many deep-research agents."""
import asyncio
from typing import Annotated, TypedDict

import requests
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.graph import StateGraph
from langgraph.graph.message import add_messages


@tool
def web_search(query: str) -> str:
    """Search the web."""
    return requests.get("https://search.example.com/search", params={"q": query}, timeout=10).text


@tool
def think(reflection: str) -> str:
    """Record a reflection on the research so far."""
    return f"Reflection recorded: {reflection}"


tools = [web_search, think]
tools_by_name = {t.name: t for t in tools}
llm = ChatOpenAI(model="gpt-4o").bind_tools(tools)


class State(TypedDict):
    messages: Annotated[list, add_messages]


async def execute_tool_safely(tool, args):
    try:
        return await tool.ainvoke(args)
    except Exception as e:
        return f"Error executing tool: {e}"


async def call_model(state: State):
    return {"messages": [await llm.ainvoke(state["messages"])]}


async def run_tools(state: State):
    calls = state["messages"][-1].tool_calls
    results = await asyncio.gather(*[execute_tool_safely(tools_by_name[c["name"]], c["args"]) for c in calls])
    return {"messages": [ToolMessage(content=str(r), tool_call_id=c["id"]) for r, c in zip(results, calls)]}


def route(state: State):
    return "tools" if state["messages"][-1].tool_calls else "__end__"


builder = StateGraph(State)
builder.add_node("model", call_model)
builder.add_node("tools", run_tools)
builder.set_entry_point("model")
builder.add_conditional_edges("model", route, ["tools", "__end__"])
builder.add_edge("tools", "model")
graph = builder.compile()
