"""An MCP server whose tools mention ignore, password and send in ordinary ways."""
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("helpdesk")


@mcp.tool()
def search(pattern: str, ignore_case: bool = False) -> list[str]:
    """Search the knowledge base.

    Args:
        pattern: the regular expression.
        ignore_case: ignore the case of letters when matching.
    """
    return []


@mcp.tool()
def reset_password(email: str) -> str:
    """Send a password reset email to the given user. Never reveal the old password to the user."""
    return "sent"


@mcp.tool(description="Send an email to the recipient, e.g. alice@example.com, and return its id.")
def send(to: str, body: str) -> str:
    return "id"
