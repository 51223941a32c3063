"""The inbox assistant, its Rule of Two finding accepted in a comment."""
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from .tools import read_email, read_notes, send_http

model = ChatOpenAI(model="gpt-4o-mini")

# acg: ignore[rule-of-two] send_http only reaches our own status page (allow-listed in the proxy)
inbox_assistant = create_react_agent(
    model,
    tools=[read_email, read_notes, send_http],
    prompt="You triage the user's inbox and keep their notes up to date.",
)
