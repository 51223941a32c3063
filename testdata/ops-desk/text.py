"""Tools that only compute on their arguments."""
import datetime
import json

from langchain_core.tools import tool


@tool
def format_date(iso: str) -> str:
    """Format an ISO date for humans."""
    return datetime.date.fromisoformat(iso).strftime("%d %B %Y")


@tool
def count_words(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


@tool
def to_json(text: str) -> str:
    """Wrap a text in a JSON object."""
    return json.dumps({"text": text})


@tool
def slugify(title: str) -> str:
    """Make a URL slug from a title."""
    return "-".join(title.lower().split())
