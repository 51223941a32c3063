import os
import smtplib
from email.message import EmailMessage

import requests
from bs4 import BeautifulSoup
from langgraph.prebuilt import create_react_agent


def scrape(url: str) -> str:
    """Return the visible text of a page."""
    html = requests.get(url, timeout=10).text
    return BeautifulSoup(html, "html.parser").get_text()


def show_config(key: str) -> str:
    """Return a configuration value."""
    return os.environ.get(key, "")


def mail(to: str, text: str) -> str:
    """Send a newsletter."""
    msg = EmailMessage()
    msg["To"] = to
    msg.set_content(text)
    with smtplib.SMTP("localhost") as smtp:
        smtp.send_message(msg)
    return "sent"


def word_count(text: str) -> int:
    """Count words."""
    return len(text.split())


basic = [word_count]
tools = basic + [scrape]
tools.append(show_config)
tools.extend([mail])

newsletter_bot = create_react_agent("openai:gpt-4o", tools)
