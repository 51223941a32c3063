import os
import shutil
import smtplib
import sqlite3
import subprocess
import tempfile
import urllib.request
from email.message import EmailMessage

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def clear_cache(name: str) -> str:
    """Delete a cache directory: writes_state, irreversible."""
    shutil.rmtree(os.path.join("/var/cache/app", os.path.basename(name)), ignore_errors=True)
    return "cleared"


@tool
def save_note(text: str) -> str:
    """Write a note to a temporary file: writes_state."""
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.write(fd, text.encode())
    os.close(fd)
    return os.path.basename(path)


@tool
def lookup_customer(customer_id: int) -> str:
    """Read a customer row: reads_private."""
    conn = sqlite3.connect("crm.db")
    rows = conn.execute("SELECT name, email FROM customers WHERE id = ?", (customer_id,)).fetchall()
    conn.close()
    return str(rows)


@tool
def list_reports() -> list[str]:
    """List report files: reads_private."""
    return sorted(os.listdir("reports"))


@tool
def fetch_page(url: str) -> str:
    """Fetch a page: untrusted_input, network_egress."""
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.read().decode("utf-8", "replace")


@tool
def send_mail(to: str, body: str) -> str:
    """Send mail: network_egress, irreversible."""
    msg = EmailMessage()
    msg["To"] = to
    msg.set_content(body)
    with smtplib.SMTP("localhost") as s:
        s.send_message(msg)
    return "sent"


@tool
def disk_usage() -> str:
    """Report disk usage: reads_private."""
    return subprocess.run(["df", "-h"], capture_output=True, text=True).stdout


ops = create_react_agent("openai:gpt-4o", [clear_cache, save_note, lookup_customer, list_reports, fetch_page, send_mail, disk_usage])
