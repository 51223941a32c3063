"""Name traps: an Agent and a FunctionTool that are not Google ADK's."""
import os

import requests


class Agent:
    def __init__(self, name, tools):
        self.name, self.tools = name, tools


def FunctionTool(fn, require_confirmation=False):
    return fn


def read_env() -> str:
    return os.environ.get("HOME", "")


def post(url: str, body: str) -> str:
    return requests.post(url, data=body, timeout=5).text


bot = Agent("bot", tools=[read_env, FunctionTool(post)])
