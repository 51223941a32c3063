import poplib

from langchain_core.tools import tool


def _fetch(index: int) -> bytes:
    box = poplib.POP3_SSL("pop.example.com")
    _, lines, _ = box.retr(index)
    return b"\n".join(lines)


@tool
def read_email(index: int = 1) -> str:
    """Read one message from the mailbox."""
    return _fetch(index).decode(errors="replace")
