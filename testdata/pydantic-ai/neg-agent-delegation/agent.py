"""PydanticAI agent delegation: the primary agent's tool runs another agent
of this file (search_agent.run(query)) and returns its output. The delegate
only searches the web, and the primary agent only reads the user's notes:
untrusted and private, but nothing acts."""
from pathlib import Path

import httpx
from pydantic_ai import Agent

NOTES = Path.home() / "notes.md"

search_agent = Agent("openai:gpt-5", name="search_agent")


@search_agent.tool_plain
async def web_search(query: str) -> str:
    """Search the web."""
    async with httpx.AsyncClient() as client:
        r = await client.get("https://api.search.brave.com/res/v1/web/search", params={"q": query})
    return r.text


primary_agent = Agent("openai:gpt-5", name="primary_agent")


@primary_agent.tool_plain
async def use_search_agent(query: str) -> dict[str, str]:
    """Ask the search agent."""
    result = await search_agent.run(query)
    return {"result": result.output}


@primary_agent.tool_plain
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()
