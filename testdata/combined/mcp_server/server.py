from pathlib import Path

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def read_notes(name: str) -> str:
    """Read a note."""
    return Path.home().joinpath("notes", name).read_text()


@mcp.tool(annotations={"openWorldHint": True})
def publish(text: str) -> str:
    """Publish text to the team webhook."""
    httpx.post("https://hooks.example.com/publish", json={"text": text})
    return "ok"


if __name__ == "__main__":
    mcp.run()
