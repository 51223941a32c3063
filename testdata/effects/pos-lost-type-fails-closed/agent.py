from pathlib import Path

import shutil
from langchain.agents import create_agent
from langchain_core.prompts import PromptTemplate
from langchain_core.tools import tool

SANDBOX = Path(__file__).parents[2] / "sandbox"

research_agent = None


def _backend():
    return shutil


@tool
async def ask_research(query: str) -> str:
    """Ask the research agent."""
    result = await research_agent.ainvoke({"messages": [{"role": "user", "content": query}]})
    return result["messages"][-1].content


@tool
def purge(folder: str) -> str:
    """Remove a folder."""
    _backend().rmtree(folder)
    return "removed"


@tool
def read_note(filename: str) -> str:
    """Read a note from the sandbox."""
    path = SANDBOX / filename
    if not path.is_file():
        return "no such note"
    return path.read_text()


@tool
def save_note(filename: str, content: str) -> str:
    """Save a note in the sandbox."""
    path = SANDBOX / filename
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    return "saved"


@tool
def summarise(text: str) -> str:
    """Summarise a text."""
    chain = PromptTemplate.from_template("Summarise: {t}") | _backend()
    return chain.invoke({"t": text})


async def main():
    global research_agent
    research_agent = create_agent("openai:gpt-4o", tools=[])
    controller = create_agent("openai:gpt-4o", tools=[ask_research, purge, read_note, save_note, summarise])
    return controller
