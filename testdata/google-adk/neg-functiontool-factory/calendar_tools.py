"""Read-only calendar tools, wrapped with a factory classmethod."""
from google.adk.tools import FunctionTool

from google_auth import get_google_service


def _calendar():
    return get_google_service("calendar", "v3")


def count_events_today() -> int:
    """Count the user's events today (a number, no event text)."""
    events = _calendar().events().list(calendarId="primary", maxResults=50).execute()
    return len(events.get("items", []))


def days_until(date: str) -> int:
    """Days from today until an ISO date."""
    from datetime import date as _date

    return (_date.fromisoformat(date) - _date.today()).days


calendar_tools = [
    FunctionTool.from_defaults(name="count_events_today", description="Count today's events", func=count_events_today),
    FunctionTool.from_defaults(name="days_until", description="Days until a date", func=days_until),
]
