from langchain_core.tools import tool


@tool
def write_email(to: str, subject: str, content: str) -> str:
    """Draft an email (the draft stays in the conversation)."""
    return f"Email drafted to {to}: {subject}"


@tool
def schedule_meeting(attendees: list[str], topic: str) -> str:
    """Propose a meeting (a suggestion in the conversation)."""
    return f"Meeting '{topic}' proposed with {', '.join(attendees)}"


@tool
def check_calendar(day: str) -> str:
    """Say which slots are free on a day."""
    return f"Free on {day}: 9:00, 14:00"
