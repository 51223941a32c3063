"""A PydanticAI agent given its MCP server the older way, mcp_servers=[...]
(pydantic-ai before toolsets=): a web search server and the user's notes.
Search results are untrusted and the notes private, but nothing acts."""
import os
from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.mcp import MCPServerStdio

NOTES = Path.home() / "notes.md"

search = MCPServerStdio(
    "npx", ["-y", "@modelcontextprotocol/server-brave-search"],
    env={"BRAVE_API_KEY": os.getenv("BRAVE_API_KEY")},
)

researcher = Agent("openai:gpt-5", name="researcher", mcp_servers=[search])


@researcher.tool_plain
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()
