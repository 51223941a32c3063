from pathlib import Path

import requests
import yaml
from deepagents import create_deep_agent
from deepagents.backends import FilesystemBackend
from langchain_core.tools import tool

HERE = Path(__file__).parent


@tool
def web_search(query: str) -> dict:
    """Search the web."""
    return requests.get("https://search.example.com/v1", params={"q": query}, timeout=10).json()


@tool
def word_count(text: str) -> int:
    """Count the words of a draft."""
    return len(text.split())


def load_subagents(config_path: Path) -> list:
    available_tools = {
        "web_search": web_search,
    }
    with open(config_path) as f:
        config = yaml.safe_load(f)
    subagents = []
    for name, spec in config.items():
        subagent = {
            "name": name,
            "description": spec["description"],
            "system_prompt": spec["system_prompt"],
        }
        if "tools" in spec:
            subagent["tools"] = [available_tools[t] for t in spec["tools"]]
        subagents.append(subagent)
    return subagents


def create_writer():
    return create_deep_agent(
        name="writer",
        tools=[word_count],
        subagents=load_subagents(HERE / "subagents.yaml"),
        backend=FilesystemBackend(root_dir=HERE),
    )
