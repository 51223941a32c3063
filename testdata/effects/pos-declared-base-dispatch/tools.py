from smolagents import Tool
from smolagents.models import Model

from converters import MarkdownConverter


class SummariseTool(Tool):
    name = "summarise_text"
    description = "Convert a local document to markdown and summarise it."
    inputs = {"path": {"type": "string", "description": "the document's path"}}
    output_type = "string"
    md_converter = MarkdownConverter()

    def __init__(self, model: Model):
        super().__init__()
        self.model = model

    def forward(self, path: str) -> str:
        markdown = self.md_converter.convert(path)
        messages = [{"role": "user", "content": [{"type": "text", "text": "Summarise:\n" + markdown}]}]
        return self.model(messages).content
