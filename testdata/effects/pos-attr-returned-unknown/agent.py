import os

from googleapiclient.discovery import build
from langchain_core.tools import tool

from vendor_mail import VendorClient


class Mailbox:
    def __init__(self):
        self.service = self._connect()

    def _connect(self):
        if os.getenv("MAIL_VENDOR"):
            return VendorClient()
        return build("gmail", "v1")

    def purge(self, query: str) -> int:
        return self.service.users().messages().batchDelete(userId="me", body={"q": query}).execute()


mailbox = Mailbox()


@tool
def purge_mail(query: str) -> str:
    """Delete the messages a query matches."""
    return str(mailbox.purge(query))
