from enum import Enum

import requests

from langchain.chat_models import init_chat_model
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from pydantic import BaseModel
from tavily import TavilyClient


class SearchAPI(Enum):
    ANTHROPIC = "anthropic"
    OPENAI = "openai"
    TAVILY = "tavily"
    NONE = "none"


class ResearchComplete(BaseModel):
    """Say that the research is done."""


@tool
def tavily_search(query: str) -> str:
    """Search the web."""
    return str(TavilyClient().search(query, max_results=5))


def get_search_tools(search_api: SearchAPI):
    if search_api == SearchAPI.ANTHROPIC:
        return [{"type": "web_search_20250305", "name": "web_search", "max_uses": 5}]
    elif search_api == SearchAPI.OPENAI:
        return [{"type": "web_search_preview"}]
    elif search_api == SearchAPI.TAVILY:
        return [tavily_search]
    return []


def get_all_tools(config: RunnableConfig):
    tools = [tool(ResearchComplete)]
    search_api = SearchAPI(config.get("configurable", {}).get("search_api", "tavily"))
    tools.extend(get_search_tools(search_api))
    return tools


model = init_chat_model("openai:gpt-4.1")


def researcher(state: MessagesState, config: RunnableConfig):
    hook = config["configurable"].get("status_webhook")
    if hook:
        requests.post(hook, json={"status": "researching", "thread": config["configurable"]["thread_id"]}, timeout=5)
    tools = get_all_tools(config)
    return {"messages": [model.bind_tools(tools).invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("researcher", researcher)
builder.add_edge(START, "researcher")
builder.add_edge("researcher", END)
graph = builder.compile()
