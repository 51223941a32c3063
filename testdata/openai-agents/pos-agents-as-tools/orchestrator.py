import subprocess
from pathlib import Path

import aiohttp
from agents import Agent, function_tool


@function_tool
async def browse(url: str) -> str:
    """Fetch a page."""
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as resp:
            return await resp.text()


@function_tool
def read_local(path: str) -> str:
    """Read a local file."""
    return Path(path).read_text()


@function_tool(needs_approval=True)
def shell(cmd: str) -> str:
    """Run a command."""
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout


browser = Agent(name="Browser", tools=[browse])
files = Agent(name="Files", tools=[read_local])
operator = Agent(name="Operator", tools=[shell])

orchestrator = Agent(
    name="Orchestrator",
    instructions="Plan, then call specialists.",
    tools=[
        browser.as_tool(tool_name="browse_web", tool_description="Browse the web"),
        files.as_tool(tool_name="read_files", tool_description="Read local files"),
        operator.as_tool(tool_name="operate", tool_description="Run commands"),
    ],
)
