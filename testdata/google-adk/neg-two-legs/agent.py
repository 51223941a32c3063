"""An inbox assistant on Google ADK: searches the web (untrusted) and
posts to any webhook: two legs, nothing private in reach."""
import requests
from google.adk.agents import Agent
from google.adk.tools import google_search

def send_http(url: str, body: str) -> dict:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return {"status": resp.status_code}


root_agent = Agent(
    name="inbox_agent",
    model="gemini-2.5-flash",
    instruction="Triage the user's inbox.",
    tools=[google_search, send_http],
)
