"""A PydanticAI research agent with one tool: a web search."""
import httpx
from pydantic_ai import Agent

research_agent = Agent("openai:gpt-4o-mini", instructions="Research the question on the web.")


@research_agent.tool_plain
def web_search(query: str) -> str:
    """Search the web."""
    return httpx.get("https://search.example.com/search", params={"q": query}, timeout=10).text
