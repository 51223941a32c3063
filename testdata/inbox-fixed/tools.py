"""Tools for the inbox assistant: read mail, read the user's notes, call webhooks."""
import email
import imaplib
import os
from pathlib import Path

import requests
from langchain_core.tools import tool
from langgraph.types import interrupt

NOTES = Path.home() / "notes.md"


@tool
def read_email(folder: str = "INBOX", limit: int = 5) -> str:
    """Read the newest messages in a mailbox folder."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"], int(os.environ.get("IMAP_PORT", "993")))
    conn.login(os.environ["IMAP_USER"], os.environ["IMAP_PASSWORD"])
    conn.select(folder)
    _, ids = conn.search(None, "ALL")
    bodies = []
    for num in ids[0].split()[-limit:]:
        _, data = conn.fetch(num, "(RFC822)")
        msg = email.message_from_bytes(data[0][1])
        bodies.append(f"From: {msg['From']}\nSubject: {msg['Subject']}\n\n{msg.get_payload()}")
    return "\n---\n".join(bodies)


@tool
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    decision = interrupt({"action": "send_http", "args": {"url": url, "body": body}})
    if decision.get("type") != "accept":
        return "Rejected by reviewer"
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"
