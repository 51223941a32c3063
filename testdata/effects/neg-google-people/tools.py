"""A scheduling assistant on the user's Google account: look a contact up
by name, then put an event on the user's own calendar."""
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

SCOPES = ["https://www.googleapis.com/auth/contacts.readonly", "https://www.googleapis.com/auth/calendar.events"]


def _creds() -> Credentials:
    return Credentials.from_authorized_user_file("token.json", SCOPES)


@tool
def find_contact_email(name: str) -> str:
    """Find the email address of one of my contacts by name."""
    service = build("people", "v1", credentials=_creds())
    results = service.people().searchContacts(query=name, readMask="names,emailAddresses").execute()
    for person in results.get("results", []):
        emails = person.get("person", {}).get("emailAddresses", [])
        if emails:
            return emails[0]["value"]
    return "no contact found"


@tool
def add_event(summary: str, start: str, end: str) -> str:
    """Put an event on my calendar (no attendees are invited)."""
    service = build("calendar", "v3", credentials=_creds())
    event = {"summary": summary, "start": {"dateTime": start}, "end": {"dateTime": end}}
    created = service.events().insert(calendarId="primary", body=event).execute()
    return created.get("htmlLink", "")


agent = create_react_agent("openai:gpt-4o-mini", tools=[find_contact_email, add_event])
