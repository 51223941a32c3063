"""Gmail tools on the Google API client with the quickstart's credential
dance: load token.json, refresh an expired token with
google.auth.transport.requests.Request(), save it back. The transport
object only carries the credentials' own refresh to Google's token
endpoint; the tools' labels are the API calls'."""
import os

from google.adk.agents import Agent
from google.adk.tools import FunctionTool
from google.auth.transport.requests import Request
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build

SCOPES = ["https://www.googleapis.com/auth/gmail.readonly"]
TOKEN = os.path.join(os.path.dirname(__file__), "token.json")


def get_credentials() -> Credentials:
    creds = Credentials.from_authorized_user_file(TOKEN, SCOPES)
    if creds.expired and creds.refresh_token:
        creds.refresh(Request())
        with open(TOKEN, "w") as f:
            f.write(creds.to_json())
    return creds


def count_labels() -> int:
    """Count the user's Gmail labels."""
    service = build("gmail", "v1", credentials=get_credentials())
    return len(service.users().labels().list(userId="me").execute().get("labels", []))


mail_agent = Agent(name="mail_agent", model="gemini-2.5-flash", tools=[FunctionTool(func=count_labels)])
