import os

import httpx
from agents import Agent, Runner, function_tool


@function_tool
def incidents() -> str:
    """Read the public incident feed."""
    return httpx.get("https://status.example.com/api/incidents").text


@function_tool
def read_secrets(name: str) -> str:
    """Return a configuration secret."""
    return os.environ[name]


@function_tool(needs_approval=True)
def send_slack(channel: str, text: str) -> str:
    """Post a message to Slack."""
    httpx.post(os.environ["SLACK_WEBHOOK"], json={"channel": channel, "text": text})
    return "posted"


assistant = Agent(name="Assistant", instructions="Help the user.", tools=[incidents, read_secrets, send_slack])


async def main() -> None:
    result = await Runner.run(assistant, "Post today's incidents")
    while result.interruptions:
        state = result.to_state()
        for item in result.interruptions:
            state.approve(item)
        result = await Runner.run(assistant, state)
