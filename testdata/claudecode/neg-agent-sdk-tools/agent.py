"""A documentation checker on the Claude Agent SDK that runs unattended
(bypassPermissions) but is given only the read tools: the tools option
leaves the session no shell, no writes and no web."""
import asyncio

from claude_agent_sdk import ClaudeAgentOptions, query


async def main() -> None:
    options = ClaudeAgentOptions(
        system_prompt="List the functions the docs mention that no longer exist.",
        tools=["Read", "Grep", "Glob"],
        permission_mode="bypassPermissions",
    )
    async for message in query(prompt="Check docs/ against src/.", options=options):
        print(message)


if __name__ == "__main__":
    asyncio.run(main())
