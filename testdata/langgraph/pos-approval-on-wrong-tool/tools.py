import imaplib
import os
from pathlib import Path

import requests
from langchain_core.tools import tool
from langgraph.types import interrupt


@tool
def read_email() -> str:
    """Read the newest message (asks first)."""
    answer = interrupt({"action": "read_email"})
    if answer != "yes":
        return "not allowed"
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    _, data = conn.fetch(b"1", "(RFC822)")
    return data[0][1].decode()


@tool
def read_notes() -> str:
    """Return the user's notes."""
    return Path("notes.md").read_text()


@tool("send_http")
def post_payload(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)
