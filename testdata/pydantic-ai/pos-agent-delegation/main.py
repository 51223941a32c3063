"""PydanticAI agent delegation across files: the primary agent's tools run
the mail agent and the poster agent (imported), and it reads the notes
itself. Mail is untrusted and private, the poster sends it anywhere."""
from pathlib import Path

from pydantic_ai import Agent

from delegates import mail_agent, poster_agent

NOTES = Path.home() / "notes.md"

primary_agent = Agent("openai:gpt-5", name="primary_agent")


@primary_agent.tool_plain
async def use_mail_agent(query: str) -> str:
    """Ask the mail agent about the inbox."""
    return (await mail_agent.run(query)).output


@primary_agent.tool_plain
def use_poster_agent(query: str) -> str:
    """Have the poster agent send something."""
    return poster_agent.run_sync(query).output


@primary_agent.tool_plain
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()
