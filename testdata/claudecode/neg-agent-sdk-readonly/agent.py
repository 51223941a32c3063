"""A code reviewer on the Claude Agent SDK that may only read the
repository: the read tools are allowed, everything else asks, and no
can_use_tool callback or hook answers for the user."""
import asyncio

from claude_agent_sdk import ClaudeAgentOptions, query


async def main() -> None:
    options = ClaudeAgentOptions(
        system_prompt="Review the diff and point out bugs.",
        allowed_tools=["Read", "Glob", "Grep"],
        disallowed_tools=["Bash", "WebFetch", "WebSearch"],
    )
    async for message in query(prompt="Review the last commit.", options=options):
        print(message)


if __name__ == "__main__":
    asyncio.run(main())
