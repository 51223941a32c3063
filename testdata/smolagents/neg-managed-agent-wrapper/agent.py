"""A smolagents manager with a managed agent wrapped the older way
(ManagedAgent(agent=..., name=..., description=...), smolagents before 1.8):
the managed agent only searches the web; the manager reads the notes.
Untrusted and private, but nothing acts."""
from pathlib import Path

from smolagents import DuckDuckGoSearchTool, InferenceClientModel, ManagedAgent, ToolCallingAgent, tool

NOTES = Path.home() / "notes.md"


@tool
def read_notes() -> str:
    """Return the user's private notes."""
    return NOTES.read_text()


searcher = ToolCallingAgent(tools=[DuckDuckGoSearchTool()], model=InferenceClientModel())
managed_searcher = ManagedAgent(agent=searcher, name="search_agent", description="Searches the web.")
manager = ToolCallingAgent(tools=[read_notes], model=InferenceClientModel(), managed_agents=[managed_searcher], name="manager")
