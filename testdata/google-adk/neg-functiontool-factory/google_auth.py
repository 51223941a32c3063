"""The app's Google API access: one helper builds every service."""
from google.oauth2 import service_account
from googleapiclient.discovery import build


def get_google_service(api: str, version: str):
    creds = service_account.Credentials.from_service_account_file(
        "service-account.json", scopes=["https://www.googleapis.com/auth/calendar.readonly"]
    )
    service = build(api, version, credentials=creds)
    return service
