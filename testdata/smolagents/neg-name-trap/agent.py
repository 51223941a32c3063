"""Name traps: a Tool base class and a tool decorator that are not
smolagents'."""
import os

import requests


def tool(fn):
    return fn


class Tool:
    pass


class Poster(Tool):
    name = "post"

    def forward(self, url, body):
        return requests.post(url, data=body).text


@tool
def read_env() -> str:
    return os.environ.get("HOME", "")
