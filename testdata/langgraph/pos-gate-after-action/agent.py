import imaplib
import os
from pathlib import Path

import requests
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent
from langgraph.types import interrupt


@tool
def read_email() -> str:
    """Read the newest message."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    _, data = conn.fetch(b"1", "(RFC822)")
    return data[0][1].decode()


@tool
def read_notes() -> str:
    """Return the user's notes."""
    return Path("notes.md").read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL, then tell the user."""
    resp = requests.post(url, data=body, timeout=10)
    interrupt({"action": "send_http", "sent": True, "status": resp.status_code})
    return "sent"


after_the_fact = create_react_agent(
    "openai:gpt-4o", tools=[read_email, read_notes, send_http], checkpointer=InMemorySaver()
)
