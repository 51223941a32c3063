from pathlib import Path

import requests
from langchain_classic.agents import AgentType, initialize_agent
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI


@tool
def fetch(url: str) -> str:
    """Fetch a web page."""
    return requests.get(url, timeout=10).text


@tool
def read_notes() -> str:
    """Return the user's private notes."""
    return Path("notes.md").read_text()


@tool
def send_http(url: str, body: str) -> str:
    """POST a payload to a webhook URL."""
    return str(requests.post(url, data=body, timeout=10).status_code)


llm = ChatOpenAI(model="gpt-4o", temperature=0)
research_agent = initialize_agent(
    [fetch, read_notes, send_http],
    llm,
    agent=AgentType.STRUCTURED_CHAT_ZERO_SHOT_REACT_DESCRIPTION,  # ZERO_SHOT takes single-input tools only
    verbose=True,
)
