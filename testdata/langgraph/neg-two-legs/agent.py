from pathlib import Path

import requests
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

NOTES = Path.home() / "notes.md"


@tool
def read_notes() -> str:
    """Return the user's notes."""
    return NOTES.read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, json={"text": body}, timeout=10)
    return f"status {resp.status_code}"


notes_sync = create_react_agent("openai:gpt-4o", [read_notes, send_http])
