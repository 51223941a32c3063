"""A browser the tools share: it fetches pages and keeps the current one."""

import requests


class WebPager:
    def __init__(self, timeout: int = 10):
        self.timeout = timeout
        self.page = ""

    def visit(self, url: str) -> None:
        self.page = requests.get(url, timeout=self.timeout).text

    def current(self) -> str:
        return self.page[:4000]
