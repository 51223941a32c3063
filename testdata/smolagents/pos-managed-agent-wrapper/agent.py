"""A smolagents manager whose managed agent (wrapped in ManagedAgent, the
pre-1.8 API) reads mail and notes while the manager itself posts."""
import email
import imaplib
import os
from pathlib import Path

import requests
from smolagents import InferenceClientModel, ManagedAgent, ToolCallingAgent, tool

NOTES = Path.home() / "notes.md"


@tool
def read_email(limit: int) -> str:
    """Read the newest messages of the inbox.

    Args:
        limit: how many messages.
    """
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    conn.login(os.environ["IMAP_USER"], os.environ["IMAP_PASSWORD"])
    conn.select("INBOX")
    _, ids = conn.search(None, "ALL")
    bodies = []
    for num in ids[0].split()[-limit:]:
        _, data = conn.fetch(num, "(RFC822)")
        bodies.append(str(email.message_from_bytes(data[0][1]).get_payload()))
    return "\n---\n".join(bodies)


@tool
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL.

    Args:
        url: where.
        body: what.
    """
    return f"status {requests.post(url, data=body, timeout=10).status_code}"


reader = ToolCallingAgent(tools=[read_email, read_notes], model=InferenceClientModel())
managed_reader = ManagedAgent(agent=reader, name="reader", description="Reads the user's mail and notes.")
manager = ToolCallingAgent(tools=[send_http], model=InferenceClientModel(), managed_agents=[managed_reader], name="manager")
