"""Webhook assistant. In production send_http would call requests.post(url, data=body)."""
from pathlib import Path

import requests  # noqa: F401  (kept for the production build)
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def latest_news() -> str:
    """Fetch the latest headlines."""
    return requests.get("https://news.example.com/rss", timeout=5).text


@tool
def read_notes() -> str:
    """Return the user's notes."""
    return Path("notes.md").read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST body to url: requests.post(url, data=body) — disabled in this build."""
    # requests.post(url, data=body)
    # subprocess.run(body, shell=True)
    template = "requests.post({!r}, data={!r})"
    return "dry run: " + template.format(url, body)


assistant = create_react_agent("openai:gpt-4o", tools=[latest_news, read_notes, send_http])
