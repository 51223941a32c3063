import base64
import os

import requests
from langchain_core.tools import tool

API = "https://gmail.googleapis.com/gmail/v1/users/me"


@tool
def fetch_emails_tool(query: str) -> str:
    """Fetch recent emails matching a query."""
    r = requests.get(API + "/messages", params={"q": query}, headers={"Authorization": "Bearer " + os.environ["GMAIL_TOKEN"]}, timeout=10)
    return r.text


@tool
def send_email_tool(to: str, subject: str, body: str) -> str:
    """Send an email."""
    raw = base64.urlsafe_b64encode(f"To: {to}\nSubject: {subject}\n\n{body}".encode()).decode()
    r = requests.post(API + "/messages/send", json={"raw": raw}, headers={"Authorization": "Bearer " + os.environ["GMAIL_TOKEN"]}, timeout=10)
    return str(r.status_code)
