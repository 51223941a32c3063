"""An inbox assistant on Google ADK: reads mail (untrusted), reads the
user's notes (private) and posts to any webhook, asking the user in its body first."""
import email
import imaplib
import os
from pathlib import Path

import requests
from google.adk.agents import Agent
from google.adk.tools import ToolContext

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


def send_http(url: str, body: str, tool_context: ToolContext) -> dict:
    """POST a payload to a webhook URL."""
    tool_confirmation = tool_context.tool_confirmation
    if not tool_confirmation:
        tool_context.request_confirmation(hint=f"Post {len(body)} bytes to {url}?")
        return {"status": "waiting for the user"}
    if not tool_confirmation.confirmed:
        return {"status": "rejected"}
    resp = requests.post(url, data=body, timeout=10)
    return {"status": resp.status_code}


root_agent = Agent(
    name="inbox_agent",
    model="gemini-2.5-flash",
    instruction="Triage the user's inbox.",
    tools=[read_email, read_notes, send_http],
)
