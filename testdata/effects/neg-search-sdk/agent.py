import os

import streamlit as st
from agents import Agent, function_tool
from duckduckgo_search import DDGS
from exa_py import Exa
from firecrawl import FirecrawlApp
from linkup import LinkupClient
from serpapi import GoogleSearch
from tavily import TavilyClient


@function_tool
def tavily_search(query: str) -> str:
    """Search the web with Tavily."""
    client = TavilyClient(api_key=os.getenv("TAVILY_API_KEY"))
    return str(client.search(query, max_results=5))


@function_tool
def exa_search(query: str) -> str:
    """Search the web with Exa."""
    exa = Exa(api_key=os.environ["EXA_API_KEY"])
    return str(exa.search_and_contents(query, num_results=3))


@function_tool
def ddg_search(query: str) -> str:
    """Search the web with DuckDuckGo."""
    return str(DDGS().text(query, max_results=5))


@function_tool
def deep_research(query: str, max_depth: int) -> dict:
    """Deep web research with Firecrawl."""
    app = FirecrawlApp(api_key=st.session_state.firecrawl_api_key)
    with st.spinner("Researching..."):
        results = app.deep_research(query=query, params={"maxDepth": max_depth})
    st.write(results["data"]["finalAnalysis"])
    st.session_state.history.append(query)
    return {"analysis": results["data"]["finalAnalysis"]}


@function_tool
def firecrawl_search(query: str) -> str:
    """Search the web with Firecrawl."""
    return str(FirecrawlApp(api_key=os.getenv("FIRECRAWL_API_KEY")).search(query, limit=5))


@function_tool
def linkup_search(query: str) -> str:
    """Search the web with Linkup."""
    depth = os.getenv("LINKUP_DEPTH", "standard")
    return str(LinkupClient().search(query=query, depth=depth, output_type="sourcedAnswer"))


@function_tool
def google_search(query: str) -> str:
    """Search Google through SerpAPI."""
    return str(GoogleSearch({"q": query, "api_key": os.getenv("SERPAPI_KEY")}).get_dict())


researcher = Agent(
    name="researcher",
    tools=[tavily_search, exa_search, ddg_search, deep_research, firecrawl_search, linkup_search, google_search],
)
