"""Name traps: an Agent class and a `tool` decorator that are not
PydanticAI's. Nothing here is a PydanticAI agent."""
import os

import requests


class Agent:
    def __init__(self, name):
        self.name = name
        self.fns = []

    def tool(self, fn):
        self.fns.append(fn)
        return fn


bot = Agent("bot")


@bot.tool
def read_env() -> str:
    return os.environ.get("HOME", "")


@bot.tool
def post(url: str, body: str) -> str:
    return requests.post(url, data=body, timeout=5).text
