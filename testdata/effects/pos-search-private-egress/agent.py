from pathlib import Path

from agents import Agent, function_tool
from firecrawl import FirecrawlApp
from tavily import TavilyClient


@function_tool
def search_my_file(path: str) -> str:
    """Find pages like one of my files."""
    text = open(path, encoding="utf-8").read()
    return str(TavilyClient().search(text[:400]))


def _ask(q: str) -> str:
    return str(TavilyClient().search(q))


@function_tool
def search_notes(topic: str) -> str:
    """Search the web about my notes on a topic."""
    notes = Path("notes").joinpath(topic + ".md").read_text()
    return _ask(notes)


@function_tool
def scrape(url: str) -> str:
    """Scrape a page."""
    return str(FirecrawlApp().scrape_url(url))


researcher = Agent(name="researcher", tools=[search_my_file, search_notes, scrape])
