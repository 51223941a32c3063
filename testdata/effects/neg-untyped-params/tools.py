from langchain_core.tools import tool
from tavily import TavilyClient


@tool
def lookup(query: str, client=TavilyClient()) -> str:
    """Search the web; the client is the parameter's default value."""
    return str(client.search(query, max_results=3))


def headlines(topic: str, client=TavilyClient()) -> str:
    return str(client.search(f"{topic} news", topic="news"))


@tool
def news(topic: str) -> str:
    """Headlines about a topic, through a helper whose client is its default."""
    return headlines(topic)
