"""A release helper on the Claude Agent SDK: it reads the repository, can
fetch any web page through an MCP server, and runs shell commands, all
allowed without asking."""
import asyncio

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient

READ_TOOLS = ["Read", "Glob", "Grep"]


async def main() -> None:
    options = ClaudeAgentOptions(
        system_prompt="Prepare the release notes and tag the release.",
        allowed_tools=[*READ_TOOLS, "Bash", "mcp__fetch__fetch"],
        permission_mode="acceptEdits",
        mcp_servers={"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}},
    )
    async with ClaudeSDKClient(options=options) as client:
        await client.query("Write the notes for the next release and tag it.")
        async for message in client.receive_response():
            print(message)


if __name__ == "__main__":
    asyncio.run(main())
