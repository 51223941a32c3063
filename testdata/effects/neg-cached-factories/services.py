"""Per-user Google services and preferences, made on first use and cached."""
import logging

from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build

logger = logging.getLogger(__name__)
SCOPES = ["https://www.googleapis.com/auth/calendar.readonly"]

_services = {}


def get_calendar_service(user_id=None):
    if not user_id:
        logger.error("no user")
        return None
    key = f"calendar_{user_id}"
    if key in _services:
        return _services[key]
    try:
        creds = Credentials.from_authorized_user_file(f"tokens/{user_id}.json", SCOPES)
        service = build("calendar", "v3", credentials=creds)
        _services[key] = service
        return service
    except Exception as exc:
        logger.error("calendar: %s", exc)
        return None


class Preferences:
    def __init__(self):
        self.by_user = {}

    def timezone(self, user_id: str) -> str:
        return self.by_user.get(user_id, {}).get("tz", "UTC")


_preferences = None


def get_preferences() -> Preferences:
    global _preferences
    if _preferences is None:
        _preferences = Preferences()
    return _preferences


_default_preferences = Preferences()


def default_preferences():
    return _default_preferences
