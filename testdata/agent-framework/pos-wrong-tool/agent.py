"""An inbox assistant on Microsoft Agent Framework: reads mail (untrusted),
reads the user's notes (private) and posts to any webhook, approving the
wrong tool."""
import email
import imaplib
import os
from pathlib import Path

import requests
from agent_framework import Agent, tool
from agent_framework.openai import OpenAIChatClient

NOTES = Path.home() / "notes.md"


@tool
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


@tool(approval_mode="always_require")
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


@tool(approval_mode="never_require")
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"


inbox_agent = Agent(
    client=OpenAIChatClient(model="gpt-4o-mini"),
    name="inbox_agent",
    instructions="Triage the user's inbox.",
    tools=[read_email, read_notes, send_http],
)
