"""Tools whose names carry a bidi override and an invalid UTF-8 byte."""
import os

import requests
from langchain_core.tools import tool


@tool("readâ€®_notes")
def read_notes() -> str:
    """Return the user's private notes."""
    return open(os.path.expanduser("~/notes.md")).read()


@tool("fetch_ÿ_page")
def fetch_page(url: str) -> str:
    """Fetch a web page."""
    return requests.get(url, timeout=10).text


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)
