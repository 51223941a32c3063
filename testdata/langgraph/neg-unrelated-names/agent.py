import imaplib
import os
from pathlib import Path

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


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
    """Describe the request that would be sent (preview only)."""
    return f"POST {url} with {len(body)} bytes"


previewer = create_react_agent("openai:gpt-4o", tools=[read_email, read_notes, send_http])
