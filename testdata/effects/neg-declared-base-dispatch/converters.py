"""Document converters behind one abstract base, tried in turn."""
from typing import List, Optional


class DocumentConverter:
    """Abstract base: each subclass converts the formats it knows."""

    def convert(self, text: str) -> Optional[str]:
        raise NotImplementedError


class PlainTextConverter(DocumentConverter):
    def convert(self, text: str) -> Optional[str]:
        return text.strip()


class HtmlConverter(DocumentConverter):
    def convert(self, text: str) -> Optional[str]:
        if "<" not in text:
            return None
        return text.replace("<p>", "\n").replace("</p>", "")


class MarkdownConverter:
    def __init__(self) -> None:
        self._converters: List[DocumentConverter] = []
        self._converters.append(PlainTextConverter())
        self._converters.append(HtmlConverter())

    def convert(self, text: str) -> str:
        for converter in self._converters:
            res = converter.convert(text)
            if res is not None:
                return res
        return text
