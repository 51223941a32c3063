import os

import requests
from agents import Agent, function_tool


async def only_big(ctx, params, call_id) -> bool:
    return len(params.get("text", "")) > 10_000


@function_tool(needs_approval=True)
def read_inbox() -> str:
    """Read the latest support email."""
    resp = requests.get("https://mail.example.com/api/latest", headers={"Authorization": os.environ["MAIL_TOKEN"]})
    return resp.json()["body"]


@function_tool
def read_customer(customer_id: str) -> str:
    """Read a customer record."""
    with open(f"customers/{customer_id}.json") as fh:
        return fh.read()


@function_tool(name_override="upload_report")
def upload(destination: str, text: str) -> str:
    """Upload a report."""
    requests.put(destination, data=text.encode(), timeout=30)
    return "uploaded"


@function_tool(needs_approval=only_big)
def archive(text: str) -> str:
    """Archive text."""
    with open("archive.log", "a") as fh:
        fh.write(text)
    return "archived"


reporter = Agent(name="Reporter", tools=[read_inbox, read_customer, upload, archive])
