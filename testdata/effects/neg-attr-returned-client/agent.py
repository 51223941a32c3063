from googleapiclient.discovery import build
from langchain_core.tools import tool


class Mailbox:
    def __init__(self):
        self.service = self._connect()

    def _connect(self):
        return build("gmail", "v1")

    def unread(self) -> list:
        result = self.service.users().messages().list(userId="me", q="is:unread").execute()
        return result.get("messages", [])


mailbox = Mailbox()


@tool
def unread_mail() -> str:
    """List unread messages."""
    return str(mailbox.unread())
