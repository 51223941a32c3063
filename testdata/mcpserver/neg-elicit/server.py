import imaplib

import httpx
from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("inbox")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
def check_inbox(folder: str) -> str:
    """Return the newest message in a folder."""
    box = imaplib.IMAP4_SSL("imap.example.com")
    box.select(folder)
    _, data = box.fetch("1", "(RFC822)")
    return data[0][1].decode()


@mcp.tool()
async def forward(text: str, ctx: Context) -> str:
    """Forward text to the team webhook."""
    answer = await ctx.elicit(message=f"Forward this?\n{text}", schema=Confirm)
    if answer.action != "accept":
        return "cancelled"
    httpx.post("https://hooks.example.com/team", json={"text": text})
    return "forwarded"


if __name__ == "__main__":
    mcp.run()
