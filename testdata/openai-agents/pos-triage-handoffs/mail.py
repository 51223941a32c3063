import json
import smtplib
from email.message import EmailMessage

from agents import Agent, function_tool


@function_tool
def read_mailbox(folder: str) -> str:
    """Return the saved messages of a folder."""
    with open(f"mailbox/{folder}.json") as fh:
        return json.dumps(json.load(fh))


@function_tool
def send_mail(to: str, body: str) -> str:
    """Send an email."""
    msg = EmailMessage()
    msg["To"] = to
    msg.set_content(body)
    with smtplib.SMTP_SSL("smtp.example.com") as s:
        s.send_message(msg)
    return "sent"


mail_agent = Agent(name="Mail", instructions="Handle email.", tools=[read_mailbox, send_mail])
