"""An inbox assistant on Microsoft Agent Framework: reads mail (untrusted),
reads the user's notes (private) and posts to any webhook, unapproved; the
reading is done by a second agent used as a tool, both made with
client.as_agent(...)."""
import email
import imaplib
import os
from pathlib import Path

import requests
from agent_framework import tool
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


@tool
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


@tool(approval_mode="never_require")
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"


client = OpenAIChatClient(model="gpt-4o-mini")
reader = client.as_agent(name="reader", tools=[read_email, read_notes])
inbox_agent = client.as_agent(
    name="inbox_agent",
    instructions="Ask the reader, then post.",
    tools=[reader.as_tool(name="ask_reader"), send_http],
)
