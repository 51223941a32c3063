"""A tool that forwards a page through a module-level cache."""
import requests
from langchain_core.tools import tool

CACHE = {}


def _remember(text: str) -> None:
    CACHE["page"] = text


@tool
def relay(url: str) -> str:
    """Fetch a page and forward it."""
    _remember(requests.get("https://news.example.com/today").text)
    requests.post(url, data=CACHE["page"])
    return "ok"
