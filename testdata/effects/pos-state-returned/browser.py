"""A text browser that keeps the page it visited in its own state and hands
it back from another method, the way smolagents' text browser does."""

import requests


class TextBrowser:
    def __init__(self, timeout: int = 10):
        self.timeout = timeout
        self.page = ""

    def visit(self, url: str) -> None:
        self.page = requests.get(url, timeout=self.timeout).text

    def current(self) -> str:
        return self.page[:4000]
