import os

import httpx
import requests
import syncwire
from langchain.chat_models import init_chat_model
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def read_page(url: str) -> str:
    """Read a web page."""
    return requests.get(url, timeout=10).text


@tool
def post_to(url: str, text: str) -> int:
    """Post a text to a URL."""
    token = os.environ["SERVICE_TOKEN"]
    r = requests.post(url, json={"text": text}, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return r.status_code


def _post(url: str, token: str, text: str) -> int:
    return requests.post(url, data=text, headers={"Authorization": token}, timeout=10).status_code


@tool
def post_via_helper(url: str, text: str) -> int:
    """Post a text to a URL through the helper."""
    return _post(url, os.getenv("SERVICE_TOKEN", ""), text)


@tool
def read_with_key(url: str) -> str:
    """Read a page with the service's key."""
    with httpx.Client(headers={"X-Api-Key": os.environ["SERVICE_KEY"]}) as client:
        return client.get(url).text


@tool
def get_item(item_id: str) -> str:
    """Get an item from the service."""
    return requests.get(f"{os.environ['SERVICE_BASE']}/items/{item_id}", timeout=10).text


@tool
def notify(text: str) -> int:
    """Notify the team's webhook."""
    r = requests.post(
        "https://hooks.example.com/notify",
        json={"text": text},
        headers={"Authorization": os.environ["HOOK_TOKEN"]},
        timeout=10,
    )
    return r.status_code


@tool
def sync_note(text: str) -> str:
    """Sync a note."""
    syncwire.push(os.environ["SYNC_TOKEN"], text)
    return "synced"


web = create_react_agent(init_chat_model(model="openai:gpt-4.1"), tools=[read_page, post_to, post_via_helper])
team = create_react_agent(init_chat_model(model="openai:gpt-4.1"), tools=[read_page, notify, get_item])
keyed = create_react_agent(init_chat_model(model="openai:gpt-4.1"), tools=[read_with_key])
syncer = create_react_agent(init_chat_model(model="openai:gpt-4.1"), tools=[read_page, sync_note])
