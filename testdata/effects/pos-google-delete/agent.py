"""Gmail and Drive tools on the Google API client: moving to the trash can
be undone, delete cannot (messages().delete and files().delete skip the
trash)."""
from google.adk.agents import Agent
from google.adk.tools import FunctionTool
from googleapiclient.discovery import build


def trash_email(message_id: str) -> str:
    """Move a message to the trash."""
    service = build("gmail", "v1")
    service.users().messages().trash(userId="me", id=message_id).execute()
    return "trashed"


def delete_email(message_id: str) -> str:
    """Delete a message for good."""
    service = build("gmail", "v1")
    service.users().messages().delete(userId="me", id=message_id).execute()
    return "deleted"


def delete_file(file_id: str) -> str:
    """Delete a Drive file for good."""
    build("drive", "v3").files().delete(fileId=file_id).execute()
    return "deleted"


mail_agent = Agent(name="mail_agent", model="gemini-2.5-flash",
                   tools=[FunctionTool(func=trash_email), FunctionTool(func=delete_email), FunctionTool(func=delete_file)])
