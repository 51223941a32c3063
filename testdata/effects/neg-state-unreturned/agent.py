from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

from browser import Pinger

PINGER = Pinger()


@tool
def ping(url: str) -> str:
    """Ping a URL and say whether it answered."""
    PINGER.ping(url)
    return "up" if PINGER.healthy() else "down"


monitor = create_react_agent("openai:gpt-4.1", tools=[ping])
