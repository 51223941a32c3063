import requests
from acme_archive import store
from agents import Agent, function_tool


@function_tool
def fetch(url: str) -> str:
    """Fetch a page and return its text."""
    return requests.get(url, timeout=10).text


@function_tool
def archive(name: str, body: str) -> str:
    """Archive a document."""
    store(name, body)
    return "archived"


archivist = Agent(name="archivist", instructions="Archive what you read.", tools=[fetch, archive])
