"""A pager over text already in memory, and a converter that only
reformats strings: nothing here reads or writes anything outside."""


class TextPager:
    def __init__(self, text: str, size: int = 200):
        self.text = text
        self.size = size
        self.pos = 0

    def page_down(self) -> str:
        self.pos = min(self.pos + self.size, len(self.text))
        return self.text[self.pos:self.pos + self.size]


class Markdown:
    def convert(self, text: str) -> str:
        return "\n".join("> " + line for line in text.splitlines())
