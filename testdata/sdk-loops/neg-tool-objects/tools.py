"""The assistant's own tool objects: a base class the loop turns into
Anthropic tool specs, and one execute method per tool."""
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Tool:
    name: str
    description: str
    input_schema: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}

    async def execute(self, **kwargs) -> str:
        raise NotImplementedError


class ThinkTool(Tool):
    def __init__(self) -> None:
        super().__init__(
            name="think",
            description="Think out loud; nothing is fetched or changed.",
            input_schema={"type": "object", "properties": {"thought": {"type": "string"}}},
        )

    async def execute(self, thought: str) -> str:
        return "noted"


class NotesTool(Tool):
    def __init__(self, folder: str = "notes") -> None:
        super().__init__(
            name="read_note",
            description="Read one of the user's notes.",
            input_schema={"type": "object", "properties": {"name": {"type": "string"}}},
        )
        self.folder = Path(folder)

    async def execute(self, name: str) -> str:
        return (self.folder / f"{Path(name).name}.md").read_text()
