"""The inbox story with PydanticAI's other ways to give tools: Tool(...)
objects in tools=[...] and a FunctionToolset passed as a toolset."""
import email
import imaplib
import os
from pathlib import Path

import requests
from pydantic_ai import Agent, FunctionToolset, Tool

NOTES = Path.home() / "notes.md"


def read_email(folder: str = "INBOX", limit: int = 5) -> str:
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


outbound = FunctionToolset()


@outbound.tool_plain
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"


assistant = Agent(
    "openai:gpt-5",
    name="toolset_assistant",
    tools=[Tool(read_email, takes_ctx=False), read_notes],
    toolsets=[outbound],
)
