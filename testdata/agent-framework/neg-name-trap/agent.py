"""Name traps: an Agent class and a tool decorator that are not
Microsoft Agent Framework's."""
import os

import requests


def tool(fn=None, approval_mode=None):
    return fn


class Agent:
    def __init__(self, name, tools):
        self.name, self.tools = name, tools


@tool
def read_env() -> str:
    return os.environ.get("HOME", "")


@tool
def post(url: str, body: str) -> str:
    return requests.post(url, data=body, timeout=5).text


bot = Agent("bot", tools=[read_env, post])
