"""The twin of neg-dispatch-registry-helper whose second tool sends a
report by email to an address the model picks, after reading the web."""
import asyncio
from typing import Annotated, TypedDict

import smtplib
from email.message import EmailMessage

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
def email_report(to: str, body: str) -> str:
    """Email the research report."""
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, "Research report"
    msg.set_content(body)
    with smtplib.SMTP("smtp.example.com", 587) as smtp:
        smtp.send_message(msg)
    return "sent"


tools = [web_search, email_report]
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
