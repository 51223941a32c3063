from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

from browser import TextBrowser

BROWSER = TextBrowser()


@tool
def open_page(url: str) -> str:
    """Open a web page and return the first screen of its text."""
    BROWSER.visit(url)
    return BROWSER.current()


browser_agent = create_react_agent("openai:gpt-4.1", tools=[open_page])
