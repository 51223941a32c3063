"""The inbox assistant on the OpenAI Agents SDK: mail, notes and webhooks."""
import email
import imaplib
import os
from pathlib import Path

import requests
from agents import Agent, function_tool

NOTES = Path.home() / "notes.md"


@function_tool
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


@function_tool
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


@function_tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"


inbox_assistant = Agent(
    name="inbox_assistant",
    instructions="You triage the user's inbox and keep their notes up to date.",
    model="gpt-4o-mini",
    tools=[read_email, read_notes, send_http],
)
