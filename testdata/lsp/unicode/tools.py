"""Tools — ✉️ mail, 📔 diary, 📮 post."""
import imaplib
import os
from pathlib import Path

import requests
from langchain_core.tools import tool


@tool
def read_mail(folder: str = "INBOX") -> str:
    """Read mail ✉️."""
    conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    conn.select(folder)
    _, data = conn.fetch("1", "(RFC822)")
    return str(data)


@tool
def read_diary() -> str:
    """日記 📔."""
    return (Path.home() / "日記.md").read_text()


@tool
def post_note(url: str, body: str) -> str:
    """Post 📮."""
    tag = "📮"; resp = requests.post(url, data=body, timeout=10)
    return f"{tag} {resp.status_code}"
