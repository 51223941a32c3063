import imaplib
import os
from pathlib import Path

import requests
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver


@tool
def read_email() -> str:
    """Read the newest message."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    _, data = conn.fetch(b"1", "(RFC822)")
    return data[0][1].decode()


@tool
def read_notes() -> str:
    """Return the user's notes."""
    return Path("notes.md").read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)


agent = create_agent(
    model="openai:gpt-4o",
    tools=[read_email, read_notes, send_http],
    middleware=[
        HumanInTheLoopMiddleware(
            interrupt_on={
                "send_http": {"allowed_decisions": ["approve", "edit", "reject"]},
                "read_email": False,
            }
        ),
    ],
    checkpointer=InMemorySaver(),
    name="mail_agent",
)
