import sqlite3

from langchain_core.tools import tool


@tool
def read_notes(topic: str) -> str:
    """Look up the user's notes on a topic."""
    conn = sqlite3.connect("notes.db")
    cur = conn.cursor()
    cur.execute("SELECT body FROM notes WHERE topic = ?", (topic,))
    rows = cur.fetchall()
    return "\n".join(r[0] for r in rows)
