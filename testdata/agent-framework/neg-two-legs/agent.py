"""An inbox assistant on Microsoft Agent Framework: fetches pages (untrusted)
and posts to any webhook: two legs, nothing private in reach."""
import requests
from agent_framework import Agent, tool
from agent_framework.openai import OpenAIChatClient

@tool
def fetch_page(url: str) -> str:
    """Fetch a public web page."""
    return requests.get(url, timeout=10).text


@tool(approval_mode="never_require")
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"


inbox_agent = Agent(
    client=OpenAIChatClient(model="gpt-4o-mini"),
    name="inbox_agent",
    instructions="Triage the user's inbox.",
    tools=[fetch_page, send_http],
)
