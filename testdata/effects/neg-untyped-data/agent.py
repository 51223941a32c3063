import json
import re
from datetime import datetime
from pathlib import Path

from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

TEMPLATES = Path(__file__).parent / "templates"


def _rows(text):
    rows = []
    for part in text.split(";"):
        rows.append({"key": part, "at": datetime.now()})
    return rows


def _label(record):
    return record.get("name", "").strip().upper()


@tool
def tidy(text: str) -> str:
    """Tidy a list of records."""
    rows = _rows(text)
    rows.sort(key=lambda r: r["key"])
    first = rows[0]
    stamp = first["at"].isoformat()
    parsed = json.loads(text)
    head = parsed["items"][0].get("id", "").lower()
    parts = text.split(",")
    tail = parts[-1].strip().title()
    return " ".join([_label(parsed), stamp, head, tail])


@tool
def find_code(text: str) -> str:
    """Find an order code."""
    m = re.search(r"[A-Z]{3}-\d+", text)
    if m is None:
        return ""
    code = m.group(0)
    suffix = (TEMPLATES / code).suffix.lower()
    return code.casefold() + suffix


agent = create_react_agent("openai:gpt-4o", [tidy, find_code])
