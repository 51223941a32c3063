import asyncio

from agents import Agent, Runner
from agents.mcp import MCPServerStdio, create_static_tool_filter


async def main(root: str) -> None:
    async with MCPServerStdio(
        name="fs",
        params={"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", root]},
    ) as fs, MCPServerStdio(name="web", params={"command": "uvx", "args": ["mcp-server-fetch"]}) as web:
        files = Agent(name="files", instructions="Answer from files and the web.", mcp_servers=[fs, web])
        await Runner.run(files, "What changed?")

    reads_only = MCPServerStdio(
        name="fs-readonly",
        params={"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", root]},
        tool_filter=create_static_tool_filter(allowed_tool_names=["read_text_file", "list_directory"]),
    )
    gated_web = MCPServerStdio(
        name="web-gated", params={"command": "uvx", "args": ["mcp-server-fetch"]}, require_approval="always"
    )
    careful = Agent(name="careful", instructions="Same, with approval.", mcp_servers=[reads_only, gated_web])
    await Runner.run(careful, "What changed?")


if __name__ == "__main__":
    asyncio.run(main("."))
