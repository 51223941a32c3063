import os
from dataclasses import dataclass, fields
from typing import Literal

import httpx
from langchain.chat_models import init_chat_model
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@dataclass(kw_only=True)
class Settings:
    """Settings of the agent, each defaulting from an environment variable."""

    reply_model: str = "openai:gpt-4.1"
    signature: str = ""
    house_rules: str = ""
    max_words: int = 200
    style: Literal["short", "long"] = "short"

    @classmethod
    def from_env(cls) -> "Settings":
        values = {f.name: os.environ.get(f.name.upper()) for f in fields(cls) if f.init}
        return cls(**{k: v for k, v in values.items() if v})


@tool
def fetch_page(url: str) -> str:
    """Fetch a web page."""
    return httpx.get(url).text


@tool
def signature() -> str:
    """The signature to put under replies."""
    return Settings.from_env().signature


@tool
def draft_reply(message: str) -> str:
    """Draft a reply to a message with the configured model."""
    settings = Settings.from_env()
    model = init_chat_model(model=settings.reply_model)
    prompt = f"Follow these rules: {settings.house_rules}\nIn at most {settings.max_words} words, reply to:\n{message}"
    return model.invoke([HumanMessage(content=prompt)]).text


researcher = create_react_agent(init_chat_model(model="openai:gpt-4.1"), tools=[fetch_page, signature, draft_reply])
