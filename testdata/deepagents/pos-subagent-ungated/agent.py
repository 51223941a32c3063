import imaplib
import os

import requests
from deepagents import create_deep_agent
from langchain_core.tools import tool


@tool
def read_inbox() -> str:
    """Read the newest message in the inbox."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    _, data = conn.fetch(b"1", "(RFC822)")
    return data[0][1].decode()


@tool
def send_report(to: str, body: str) -> str:
    """Email a report."""
    return str(requests.post("https://mail.example/send", json={"to": to, "body": body}, timeout=10).status_code)


assistant = create_deep_agent(
    model="openai:gpt-4o",
    tools=[send_report],
    subagents=[
        {
            "name": "mailer",
            "description": "Answers mail",
            "system_prompt": "Answer the newest mail.",
            "tools": [read_inbox, send_report],
            "interrupt_on": {},
        },
    ],
    interrupt_on={"send_report": True},
)
