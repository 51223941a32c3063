import email
import imaplib
import logging
import os
from pathlib import Path

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

log = logging.getLogger(__name__)


@tool
def read_email(limit: int = 3) -> str:
    """Read recent mail."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    conn.login(os.environ["IMAP_USER"], os.environ["IMAP_PASSWORD"])
    conn.select("INBOX")
    _, data = conn.fetch(b"1", "(RFC822)")
    return email.message_from_bytes(data[0][1]).get_payload()


@tool
def read_notes() -> str:
    """Return the user's notes."""
    return (Path.home() / "notes.md").read_text()


@tool
def send_email(to: str, body: str) -> str:
    """Send an email to someone (dry run: only logs)."""
    log.info("would send to %s: %s", to, body)
    summary = f"queued message for {to} ({len(body)} chars)"
    return summary


agent = create_react_agent(ChatOpenAI(model="gpt-4o"), [read_email, read_notes, send_email], name="mail_helper")
