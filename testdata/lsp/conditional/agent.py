"""The inbox assistant: a ReAct agent over mail, notes and webhooks."""
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from .tools import read_email, read_notes, send_http

model = ChatOpenAI(model="gpt-4o-mini")

inbox_assistant = create_react_agent(
    model,
    tools=[read_email, read_notes, send_http],
    prompt="You triage the user's inbox and keep their notes up to date.",
)
