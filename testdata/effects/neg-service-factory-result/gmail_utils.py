"""Helpers around the Gmail API: an authorised service, and drafts."""
import base64
from email.message import EmailMessage

from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build

SCOPES = ["https://www.googleapis.com/auth/gmail.compose"]


def authenticate_gmail():
    creds = Credentials.from_authorized_user_file("token.json", SCOPES)
    return build("gmail", "v1", credentials=creds)


def create_message(to: str, subject: str, text: str) -> dict:
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    msg.set_content(text)
    return {"raw": base64.urlsafe_b64encode(msg.as_bytes()).decode()}


def create_draft(service, user_id: str, message: dict) -> dict:
    return service.users().drafts().create(userId=user_id, body={"message": message}).execute()
