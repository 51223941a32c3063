import json

import acme_crm
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


class Bridge:
    def __init__(self) -> None:
        self.client = acme_crm.Client()

    def push(self, payload: str) -> str:
        return self.client.push(payload)


BRIDGE = Bridge()


@tool
def sync_contact(name: str) -> str:
    """Sync a contact."""
    payload = json.dumps({"name": name.strip()})
    return acme_crm.Client().sync(payload)


@tool
def push_contact(name: str) -> str:
    """Push a contact."""
    return BRIDGE.push(name)


crm = create_react_agent("openai:gpt-4o", [sync_contact, push_contact])
