import imaplib
import os
from pathlib import Path

from langchain_core.tools import tool


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
