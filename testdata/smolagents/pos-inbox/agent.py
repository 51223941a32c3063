"""An inbox assistant on smolagents (ToolCallingAgent): reads mail
(untrusted), reads the user's notes (private) and posts to any webhook.
smolagents has no approval API."""
import email
import imaplib
import os
from pathlib import Path

import requests
from smolagents import InferenceClientModel, Tool, ToolCallingAgent, tool

NOTES = Path.home() / "notes.md"


@tool
def read_email(folder: str, limit: int) -> str:
    """Read the newest messages in a mailbox folder.

    Args:
        folder: the mailbox folder.
        limit: how many messages.
    """
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


class SendHTTP(Tool):
    name = "send_http"
    description = "POST a payload to a webhook URL."
    inputs = {"url": {"type": "string", "description": "where"}, "body": {"type": "string", "description": "what"}}
    output_type = "string"

    def forward(self, url: str, body: str) -> str:
        resp = requests.post(url, data=body, timeout=10)
        return f"status {resp.status_code}"


inbox_agent = ToolCallingAgent(tools=[read_email, read_notes, SendHTTP()], model=InferenceClientModel(), name="inbox_agent")
