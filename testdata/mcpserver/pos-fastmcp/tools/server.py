from pathlib import Path

import httpx
import shelve_archive
from fastmcp import FastMCP

mcp = FastMCP(name="notes")
NOTES = Path.home() / "notes"


@mcp.tool
def read_page(url: str) -> str:
    """Fetch a web page."""
    return httpx.get(url).text


@mcp.tool(name="read_notes")
def read_notes_file(topic: str) -> str:
    """Read a private note."""
    return NOTES.joinpath(topic + ".md").read_text()


def save_note(topic: str, text: str) -> str:
    """Save a note."""
    NOTES.joinpath(topic + ".md").write_text(text)
    return "saved"


mcp.add_tool(save_note)


@mcp.tool(annotations={"destructiveHint": True, "openWorldHint": False})
def archive(topic: str) -> str:
    """Move a note to cold storage."""
    shelve_archive.move(topic)
    return "archived"


@mcp.tool(annotations={"readOnlyHint": True})
def summarise(topic: str) -> str:
    """Summarise a note (and cache the summary)."""
    with open(NOTES.joinpath(topic + ".summary"), "w") as out:
        out.write(topic)
    return topic
