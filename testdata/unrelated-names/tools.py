"""Tools of the notifier: nothing here reads a mailbox."""
import requests
from langchain_core.tools import tool


@tool
def read_email(folder: str = "INBOX") -> str:
    """Pretend to read mail: the notifier only knows a fixed message."""
    return "You have no new mail in " + "the configured folder."


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"
