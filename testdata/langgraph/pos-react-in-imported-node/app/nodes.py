from pathlib import Path

import requests
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def fetch(url: str) -> str:
    """Fetch a web page."""
    return requests.get(url, timeout=10).text


@tool
def read_notes() -> str:
    """Return the user's private notes."""
    return Path("notes.md").read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)


def research(state: dict):
    agent = create_react_agent("openai:gpt-4o", [fetch, read_notes, send_http], name="researcher")
    result = agent.invoke({"messages": [("user", state["question"])]})
    return {"answer": result["messages"][-1].content}
