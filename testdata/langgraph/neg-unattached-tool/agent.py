import subprocess

import requests
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def search_web(query: str) -> str:
    """Search the web."""
    r = requests.get("https://api.search.example/v1", params={"q": query}, timeout=5)
    return r.text


@tool
def read_config(name: str) -> str:
    """Read a local configuration file."""
    with open(f"/etc/myapp/{name}.ini") as fh:
        return fh.read()


@tool
def run_shell(command: str) -> str:
    """Run a shell command (maintenance only, not given to the agent)."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


researcher = create_react_agent("openai:gpt-4o", tools=[search_web, read_config])
