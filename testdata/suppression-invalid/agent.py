"""The inbox assistant with suppression comments acg must not honour."""
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from .tools import read_email, read_notes, send_http

model = ChatOpenAI(model="gpt-4o-mini")

# acg: ignore[rule-of-two]
inbox_assistant = create_react_agent(  # acg: ignore[rule-of-3] typo in the rule name
    model,
    tools=[read_email, read_notes, send_http],
    prompt="You triage the user's inbox; '# acg: ignore[rule-of-two] in a string' is no comment.",
)
