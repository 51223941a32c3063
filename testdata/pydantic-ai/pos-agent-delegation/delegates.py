"""The delegates, in their own module: a mail reader and a poster."""
import email
import imaplib
import os

import requests
from pydantic_ai import Agent

mail_agent = Agent("openai:gpt-5", name="mail_agent")


@mail_agent.tool_plain
def read_email(limit: int = 5) -> str:
    """Read the newest messages of the inbox."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    conn.login(os.environ["IMAP_USER"], os.environ["IMAP_PASSWORD"])
    conn.select("INBOX")
    _, ids = conn.search(None, "ALL")
    bodies = []
    for num in ids[0].split()[-limit:]:
        _, data = conn.fetch(num, "(RFC822)")
        bodies.append(str(email.message_from_bytes(data[0][1]).get_payload()))
    return "\n---\n".join(bodies)


poster_agent = Agent("openai:gpt-5", name="poster_agent")


@poster_agent.tool_plain
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return f"status {requests.post(url, data=body, timeout=10).status_code}"
