"""A text browser whose page reaches its state through a setter: visit()
fetches through a helper, the helper hands the text to _set_content(),
and current() returns a view of what was stored."""

import requests


class TextBrowser:
    def __init__(self) -> None:
        self._content = ""
        self.offset = 0

    def visit(self, url: str) -> None:
        self._fetch(url)

    def _fetch(self, url: str) -> None:
        response = requests.get(url, timeout=20)
        self._set_content(response.text)

    def _set_content(self, text: str) -> None:
        self._content = text
        self.offset = 0

    @property
    def viewport(self) -> str:
        return self._content[self.offset:self.offset + 2000]

    def current(self) -> str:
        return self.viewport
