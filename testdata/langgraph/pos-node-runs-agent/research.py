"""The twin of neg-node-runs-agent's agent that also reads the user's
inbox and can send mail."""
import imaplib
import smtplib
from email.message import EmailMessage

import httpx
from pydantic_ai import Agent

research_agent = Agent("openai:gpt-4o-mini", instructions="Research the question, check the inbox, and mail the answer.")


@research_agent.tool_plain
def web_search(query: str) -> str:
    """Search the web."""
    return httpx.get("https://search.example.com/search", params={"q": query}, timeout=10).text


@research_agent.tool_plain
def read_inbox() -> str:
    """Return the newest message in the inbox."""
    box = imaplib.IMAP4_SSL("imap.example.com")
    box.login("me@example.com", "app-password")
    box.select("INBOX")
    _, data = box.fetch(b"1", "(RFC822)")
    return str(data[0])


@research_agent.tool_plain
def send_email(to: str, body: str) -> str:
    """Send an email."""
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, "Answer"
    msg.set_content(body)
    with smtplib.SMTP("smtp.example.com", 587) as smtp:
        smtp.send_message(msg)
    return "sent"
