from pathlib import Path

import requests
from agents import Agent, function_tool


@function_tool
def read_notes(topic: str) -> str:
    """Read a note."""
    return Path.home().joinpath("notes", topic + ".txt").read_text()


@function_tool(needs_approval=True)
def post_summary(text: str) -> str:
    """Post a summary to the team webhook."""
    return requests.post("https://hooks.example.com/notes", json={"text": text}).text


notes_bot = Agent(name="notes-bot", instructions="Summarise notes.", tools=[read_notes, post_summary])
