from pathlib import Path

import requests
from agents import Agent, function_tool


@function_tool
def fetch_docs() -> str:
    """Fetch the public changelog."""
    return requests.get("https://example.com/changelog.txt", timeout=5).text


@function_tool
def read_file(name: str) -> str:
    """Read a file from the workspace."""
    return (Path("workspace") / name).read_text()


@function_tool
def send_email(to: str, subject: str, body: str) -> str:
    """Send an email (sandbox: prints instead)."""
    print(f"To: {to}\nSubject: {subject}\n\n{body}")
    return "printed"


@function_tool
def delete_records(table: str) -> str:
    """Delete records (sandbox: describes the change)."""
    return f"would delete every row of {table!r}"


sandbox = Agent(name="Sandbox", tools=[fetch_docs, read_file, send_email, delete_records])
