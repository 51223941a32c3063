"""An inbox assistant on Google ADK: reads mail (untrusted), reads the
user's notes (private) and posts to any webhook, asking only for long bodies."""
import email
import imaplib
import os
from pathlib import Path

import requests
from google.adk.agents import Agent
from google.adk.tools import FunctionTool

NOTES = Path.home() / "notes.md"


def read_email(folder: str, limit: int) -> str:
    """Read the newest messages in a mailbox folder."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    conn.login(os.environ["IMAP_USER"], os.environ["IMAP_PASSWORD"])
    conn.select(folder)
    _, ids = conn.search(None, "ALL")
    bodies = []
    for num in ids[0].split()[-limit:]:
        _, data = conn.fetch(num, "(RFC822)")
        msg = email.message_from_bytes(data[0][1])
        bodies.append(f"From: {msg['From']}\nSubject: {msg['Subject']}\n\n{msg.get_payload()}")
    return "\n---\n".join(bodies)


def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


def send_http(url: str, body: str) -> dict:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return {"status": resp.status_code}


root_agent = Agent(
    name="inbox_agent",
    model="gemini-2.5-flash",
    instruction="Triage the user's inbox.",
    tools=[read_email, read_notes, FunctionTool(send_http, require_confirmation=lambda url, body: len(body) > 1000)],
)
