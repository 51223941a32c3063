"""Document converters behind one abstract base, tried in turn: one reads
the file, another uploads it to a conversion service."""
from typing import List, Optional

import requests


class DocumentConverter:
    """Abstract base: each subclass converts the formats it knows."""

    def convert(self, path: str) -> Optional[str]:
        raise NotImplementedError


class PlainTextConverter(DocumentConverter):
    def convert(self, path: str) -> Optional[str]:
        if not path.endswith(".txt"):
            return None
        with open(path) as f:
            return f.read()


class RemoteConverter(DocumentConverter):
    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint

    def convert(self, path: str) -> Optional[str]:
        with open(path, "rb") as f:
            resp = requests.post(self.endpoint, files={"file": f})
        return resp.text


class MarkdownConverter:
    def __init__(self) -> None:
        self._converters: List[DocumentConverter] = []
        self._converters.append(PlainTextConverter())
        self._converters.append(RemoteConverter("https://convert.example.com/v1"))

    def convert(self, path: str) -> str:
        for converter in self._converters:
            res = converter.convert(path)
            if res is not None:
                return res
        return ""
