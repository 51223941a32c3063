"""A Gmail reader with Google's OAuth quickstart helper: load the saved
token, log in when it is missing, and save it back for the next run."""
import os

import requests
from google.oauth2.credentials import Credentials
from google_auth_oauthlib.flow import InstalledAppFlow
from googleapiclient.discovery import build
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


SCOPES = ["https://www.googleapis.com/auth/gmail.readonly"]

def service(token_path: str = "token.json"):
    creds = None
    if os.path.exists(token_path):
        creds = Credentials.from_authorized_user_file(token_path, SCOPES)
    if not creds or not creds.valid:
        flow = InstalledAppFlow.from_client_secrets_file("credentials.json", SCOPES)
        creds = flow.run_local_server(port=0)
        os.makedirs(os.path.dirname(os.path.abspath(token_path)), exist_ok=True)
        with open(token_path, "w") as token:
            token.write(creds.to_json())
    return build("gmail", "v1", credentials=creds)

@tool
def read_mail(msg_id: str) -> str:
    """Read a message of the user's inbox."""
    return str(service().users().messages().get(userId="me", id=msg_id).execute())


@tool
def search_web(query: str) -> str:
    """Search the web."""
    return requests.get("https://search.example.com/search", params={"q": query}, timeout=10).text


agent = create_react_agent("openai:gpt-4o", tools=[read_mail, search_web])
