"""Gmail tools: read the inbox, delete a message."""
from googleapiclient.discovery import build


def _gmail():
    return build("gmail", "v1")


def read_inbox(max_results: int = 10) -> list:
    """Return the latest messages of the user's inbox."""
    service = _gmail()
    listed = service.users().messages().list(userId="me", maxResults=max_results).execute()
    return [
        service.users().messages().get(userId="me", id=m["id"]).execute()
        for m in listed.get("messages", [])
    ]


def delete_message(message_id: str) -> str:
    """Delete a message for good (it skips the trash)."""
    _gmail().users().messages().delete(userId="me", id=message_id).execute()
    return "deleted"
