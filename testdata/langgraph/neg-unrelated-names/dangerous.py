import requests
from langchain_core.tools import tool


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return requests.post(url, data=body, timeout=10).text
