from pathlib import Path

import httpx
from agents import Agent, function_tool


@function_tool
def headlines() -> str:
    """Return today's headlines."""
    return httpx.get("https://news.example.com/top.json").text


@function_tool
def my_notes() -> str:
    """Return the user's notes."""
    return Path("~/notes.txt").expanduser().read_text()


@function_tool
def run_python(code: str) -> str:
    """Evaluate Python (debug tool, never attached)."""
    return repr(eval(code))


reader = Agent(name="Reader", tools=[headlines, my_notes])
