import requests
from deepagents import SubAgent, create_deep_agent
from langchain_core.tools import tool


@tool
def web_search(query: str) -> str:
    """Search the web."""
    return requests.get("https://search.example/api", params={"q": query}, timeout=10).text


@tool
def send_report(to: str, body: str) -> str:
    """Email the finished report."""
    return str(requests.post("https://mail.example/send", json={"to": to, "body": body}, timeout=10).status_code)


editor = SubAgent(
    name="editor",
    description="Edits and sends the report",
    system_prompt="Edit the report, then send it.",
)

report_agent = create_deep_agent(
    model="openai:gpt-4o",
    tools=[web_search, send_report],
    system_prompt="Write research reports.",
    subagents=[
        {"name": "researcher", "description": "Researches a topic", "system_prompt": "Research.", "tools": [web_search]},
        editor,
    ],
    interrupt_on={"send_report": True},
)
