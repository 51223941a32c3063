import imaplib
import os
from typing import Annotated, TypedDict

import requests
from langchain_classic.agents import AgentExecutor, create_react_agent
from langchain_core.prompts import PromptTemplate
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition


class State(TypedDict):
    messages: Annotated[list, add_messages]


@tool
def read_email() -> str:
    """Read the newest message."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    _, data = conn.fetch(b"1", "(RFC822)")
    return data[0][1].decode()


@tool
def list_events(day: str) -> str:
    """List the calendar's events on a day."""
    return requests.get("https://calendar.example.com/events", params={"day": day}, timeout=10).text


llm = ChatOpenAI(model="gpt-4o").bind_tools([read_email])


def assistant(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


async def find_time(state: State):
    model = ChatOpenAI(model="gpt-4o", temperature=0)
    agent = create_react_agent(model, [list_events])
    result = await agent.ainvoke({"messages": state["messages"][:-1]})
    return {"messages": [result["messages"][-1]]}


builder = StateGraph(State)
builder.add_node("assistant", assistant)
builder.add_node("tools", ToolNode([read_email]))
builder.add_node("find_time", find_time)
builder.add_edge(START, "assistant")
builder.add_conditional_edges("assistant", tools_condition, {"tools": "tools", "__end__": "find_time"})
builder.add_edge("tools", "assistant")
builder.add_edge("find_time", END)
inbox = builder.compile()

prompt = PromptTemplate.from_template("Find a free slot. {input} {agent_scratchpad} {tools} {tool_names}")
react = create_react_agent(ChatOpenAI(model="gpt-4o"), [list_events], prompt)
scheduler = AgentExecutor(agent=react, tools=[list_events])
