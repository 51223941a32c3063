from dataclasses import dataclass
from pathlib import Path

import requests
from agents import Agent, function_tool


@dataclass
class DeskContext:
    user_id: str


@function_tool
def fetch_page(url: str) -> str:
    """Fetch a web page."""
    return requests.get(url, timeout=10).text


@function_tool
def read_notes() -> str:
    """Return the user's private notes."""
    return Path("notes.md").read_text()


@function_tool
def post_webhook(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)


desk = Agent[DeskContext](
    name="desk",
    instructions="Help with research.",
    tools=[fetch_page, read_notes, post_webhook],
)
