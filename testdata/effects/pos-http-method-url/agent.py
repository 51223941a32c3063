"""A notes helper whose fetch tool calls requests.request("GET", url) on a
URL the model writes: the method comes first, the URL second, and what the
model puts in the URL leaves the machine."""
from pathlib import Path

import requests
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def read_notes() -> str:
    """Read the user's private notes."""
    return Path.home().joinpath("notes.md").read_text()


@tool
def fetch(url: str) -> str:
    """Fetch a web page."""
    return requests.request("GET", url, timeout=10).text


agent = create_react_agent("openai:gpt-4o-mini", tools=[read_notes, fetch])
