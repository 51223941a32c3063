"""A smolagents manager whose managed agent comes from a package outside
the scanned tree: acg cannot see what it does. The manager posts."""
import requests
from smolagents import InferenceClientModel, ToolCallingAgent, tool

from company_agents import build_reader


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL.

    Args:
        url: where.
        body: what.
    """
    return f"status {requests.post(url, data=body, timeout=10).status_code}"


manager = ToolCallingAgent(tools=[send_http], model=InferenceClientModel(), managed_agents=[build_reader()], name="manager")
