"""Agent Framework tools made by the chat client's factories: hosted web
search, the Microsoft Learn MCP server with approvals for everything but
its search, and a local shell that asks before every command."""
import subprocess

from agent_framework import Agent, Content, tool
from agent_framework.openai import OpenAIChatClient


@tool(approval_mode="always_require")
def run_bash(command: str) -> str:
    """Run a shell command and return its output."""
    result = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=30)
    return result.stdout + result.stderr


def build_agent() -> Agent:
    client = OpenAIChatClient()
    docs = client.get_mcp_tool(
        name="Microsoft Learn MCP",
        url="https://learn.microsoft.com/api/mcp",
        approval_mode={"never_require_approval": ["microsoft_docs_search"]},
    )
    return Agent(
        client=client,
        name="DevHelper",
        instructions="Answer developer questions; run commands when asked.",
        tools=[client.get_web_search_tool(), docs, client.get_shell_tool(func=run_bash)],
    )


def word_count(text: str) -> list[Content]:
    """Count the words of a text."""
    return [Content.from_text(str(len(text.split())))]


def build_researcher(client) -> Agent:
    # The client comes in untyped: its factory is still the framework's.
    return Agent(client=client, name="Researcher", tools=[client.get_web_search_tool(), word_count])
