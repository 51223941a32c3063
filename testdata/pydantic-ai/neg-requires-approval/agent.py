"""An inbox assistant on PydanticAI: reads mail (untrusted), reads the
user's notes (private) and posts to any webhook only after the user approves the call
(requires_approval=True defers it to DeferredToolRequests)."""
import email
import imaplib
import os
from pathlib import Path

import requests
from pydantic_ai import Agent, RunContext

NOTES = Path.home() / "notes.md"

inbox_agent = Agent("openai:gpt-5", name="inbox_agent", instructions="Triage the user's inbox.")


@inbox_agent.tool_plain
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


@inbox_agent.tool_plain
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


@inbox_agent.tool(requires_approval=True)
def send_http(ctx: RunContext[None], url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"
