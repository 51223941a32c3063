from dataclasses import dataclass, field

from agents import Agent, RunContextWrapper, function_tool


@dataclass
class NotesContext:
    notes: list[str] = field(default_factory=list)


@function_tool
def count_words(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


@function_tool
def remember(ctx: RunContextWrapper[NotesContext], note: str) -> str:
    """Keep a note for later in this conversation."""
    ctx.context.notes.append(note)
    return "noted"


notes_agent = Agent[NotesContext](
    name="notes",
    instructions="Keep notes for the user.",
    tools=[count_words, remember],
)


class SupportAgent:
    name = "support"

    def __init__(self):
        self.agent = Agent(name=self.name, instructions="Help.", tools=[count_words])


class Assistant:
    def __init__(self, name: str):
        self.name = name
        self.agent = Agent(name=self.name, instructions="Assist.", tools=[count_words])
