"""A calendar assistant: read the user's events, and format times."""
from agents import Agent, function_tool

from services import default_preferences, get_calendar_service, get_preferences


@function_tool
def upcoming_events(user_id: str) -> str:
    """List the user's next ten events."""
    service = get_calendar_service(user_id)
    if service is None:
        return "calendar unavailable"
    events = service.events().list(calendarId="primary", maxResults=10).execute().get("items", [])
    tz = get_preferences().timezone(user_id)
    return "\n".join(f"{e['start'].get('dateTime')} {e.get('summary', '')} ({tz})" for e in events)


@function_tool
def normalise_reference(reference: str, user_id: str) -> str:
    """Turn "the 2nd, 3rd" into positions."""
    if not any(ch.isdigit() for ch in reference):
        return "no position"
    parts = ", ".join(p.strip().rstrip("ndrsth") for p in reference.split(","))
    return f"{parts} in {default_preferences().timezone(user_id)}"


assistant = Agent(name="Calendar assistant", tools=[upcoming_events, normalise_reference])
