"""Tools that act: send mail and webhooks, write and delete files, run commands."""
import os
import smtplib
import subprocess
from email.message import EmailMessage

import requests
from langchain_core.tools import tool


@tool
def send_email(to: str, subject: str, body: str) -> str:
    """Send an email."""
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    msg.set_content(body)
    with smtplib.SMTP("localhost") as s:
        s.send_message(msg)
    return "sent"


@tool
def post_webhook(url: str, payload: str) -> str:
    """POST a payload to a webhook."""
    return str(requests.post(url, data=payload, timeout=10).status_code)


@tool
def reply_ticket(ticket_id: str, text: str) -> str:
    """Post a reply on a support ticket."""
    r = requests.post(f"https://tickets.example.com/api/tickets/{ticket_id}/replies", json={"text": text}, timeout=10)
    return str(r.status_code)


@tool
def post_status(message: str) -> str:
    """Post to the public status page."""
    return str(requests.post("https://status.example.com/api/incidents", json={"body": message}, timeout=10).status_code)


@tool
def run_shell(command: str) -> str:
    """Run a shell command on the ops host."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


@tool
def restart_service(service: str) -> str:
    """Restart a systemd service."""
    return subprocess.run(["systemctl", "restart", service], capture_output=True, text=True).stdout


@tool
def write_config(path: str, content: str) -> str:
    """Write a configuration file."""
    with open(path, "w") as f:
        f.write(content)
    return "written"


@tool
def delete_file(path: str) -> str:
    """Delete a file."""
    os.remove(path)
    return "deleted"


@tool
def save_note(name: str, text: str) -> str:
    """Save a private note."""
    with open(f"/home/desk/notes/{name}", "w") as f:
        f.write(text)
    return "saved"


@tool
def git_push(branch: str) -> str:
    """Push a branch of the ops repository."""
    return subprocess.run(["git", "push", "origin", branch], capture_output=True, text=True).stdout
