"""A tool that only computes."""
from langchain_core.tools import tool


@tool
def summarize(text: str) -> str:
    """Shorten a text."""
    return text[:200]
