"""A mail helper whose cached client may be either of two types."""
from agents import Agent, WebSearchTool, function_tool

from clients import client


@function_tool
def archive(kind: str, message_id: str) -> str:
    """Archive a message."""
    client(kind).post(f"https://archive.example.com/{message_id}")
    return "archived"


helper = Agent(name="Archiver", tools=[WebSearchTool(), archive])
