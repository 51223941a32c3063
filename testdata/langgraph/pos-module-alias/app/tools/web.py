import httpx
from langchain_core.tools import tool

client = httpx.Client(timeout=10)


@tool
def send_http(url: str, payload: str) -> str:
    """Deliver a payload to a webhook."""
    r = client.post(url, content=payload)
    return "ok" if r.is_success else "failed"
