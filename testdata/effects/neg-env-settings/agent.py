import os
from dataclasses import dataclass, fields
from enum import Enum
from typing import Literal

import httpx
from langchain.chat_models import init_chat_model
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from pydantic import BaseModel


class SearchAPI(Enum):
    TAVILY = "tavily"
    NONE = "none"


class Summary(BaseModel):
    text: str


@dataclass(kw_only=True)
class Settings:
    """Settings of the agent, each defaulting from an environment variable."""

    summary_model: str = "openai:gpt-4.1"
    search_api: SearchAPI = SearchAPI.TAVILY
    max_pages: int = 3
    retries: int = 2
    verbose: bool = False
    style: Literal["short", "long"] = "short"

    @classmethod
    def from_env(cls) -> "Settings":
        values = {f.name: os.environ.get(f.name.upper()) for f in fields(cls) if f.init}
        return cls(**{k: v for k, v in values.items() if v})


@tool
def fetch_page(url: str) -> str:
    """Fetch a web page."""
    settings = Settings.from_env()
    with httpx.Client(timeout=settings.max_pages * 10) as client:
        return client.get(url).text


@tool
def summarize(text: str) -> str:
    """Summarize a text with the configured model."""
    settings = Settings.from_env()
    if settings.search_api == SearchAPI.NONE or settings.verbose:
        return text[:200]
    model = init_chat_model(model=settings.summary_model, api_key=os.getenv("OPENAI_API_KEY"))
    writer = model.with_structured_output(Summary).with_retry(stop_after_attempt=settings.retries)
    prompt = f"Summarize in a {settings.style} style, in at most {settings.max_pages} paragraphs:\n\n{text}"
    for _ in range(settings.retries):
        answer = writer.invoke([HumanMessage(content=prompt)])
        if answer.text:
            return answer.text
    return ""


researcher = create_react_agent(
    init_chat_model(model=os.environ.get("AGENT_MODEL", "openai:gpt-4.1")),
    tools=[fetch_page, summarize],
)
