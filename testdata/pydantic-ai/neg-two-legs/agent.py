"""A research helper on PydanticAI: fetches public pages (untrusted) and
posts a summary to a webhook (egress). Nothing private is in reach: two
legs of the Rule of Two."""
import requests
from pydantic_ai import Agent, RunContext

research_agent = Agent("openai:gpt-5", name="research_agent")


@research_agent.tool_plain
def fetch_page(url: str) -> str:
    """Fetch a public web page."""
    return requests.get(url, timeout=10).text


@research_agent.tool
def send_http(ctx: RunContext[None], url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    resp = requests.post(url, data=body, timeout=10)
    return f"status {resp.status_code}"
