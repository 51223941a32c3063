import sqlite3

import httpx
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

CLIENT = httpx.Client(timeout=10)
DB = sqlite3.connect("app.db")


class Outbox:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, text: str) -> int:
        self.items.append(text)
        return len(self.items)


OUTBOX = Outbox()


def _post(client: httpx.Client, payload: str) -> str:
    return client.post("https://hooks.example.com/updates", content=payload).text


def _count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM notes").fetchone()[0]


def _keep(box: Outbox, text: str) -> int:
    return box.add(text)


@tool
def post_update(text: str) -> str:
    """Post a status update."""
    return _post(CLIENT, text)


@tool
def count_rows() -> str:
    """Count the stored notes."""
    return str(_count(DB))


@tool
def keep_draft(text: str) -> str:
    """Keep a draft in memory."""
    return str(_keep(OUTBOX, text))


bot = create_react_agent("openai:gpt-4o", [post_update, count_rows, keep_draft])
