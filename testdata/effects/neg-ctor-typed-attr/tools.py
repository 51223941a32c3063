from smolagents import Tool

from pager import Markdown, TextPager


class PageDownTool(Tool):
    name = "page_down"
    description = "Show the next page of the document."
    inputs = {}
    output_type = "string"

    def __init__(self, pager=None):
        super().__init__()
        self.pager = pager

    def forward(self) -> str:
        return self.pager.page_down()


class QuoteTool(Tool):
    name = "quote"
    description = "Quote a text as markdown."
    inputs = {"text": {"type": "string", "description": "The text to quote."}}
    output_type = "string"
    # A class-level attribute: every instance shares this converter.
    converter = Markdown()

    def forward(self, text: str) -> str:
        return self.converter.convert(text)
