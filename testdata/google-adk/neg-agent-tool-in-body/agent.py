import imaplib
import pathlib

from google.adk.agents import Agent
from google.adk.tools import ToolContext
from google.adk.tools.agent_tool import AgentTool


def read_inbox(folder: str) -> str:
    """Returns the newest messages of a mail folder."""
    box = imaplib.IMAP4_SSL("imap.example.com")
    box.select(folder)
    _, data = box.fetch("1:5", "(RFC822)")
    return str(data)


def read_notes(name: str) -> str:
    """Returns one of the user's private notes."""
    return (pathlib.Path.home() / "notes" / name).read_text()



mail_agent = Agent(
    name="mail_agent",
    model="gemini-2.0-flash",
    instruction="Read the user's mail and notes.",
    tools=[read_inbox, read_notes],
)


async def call_mail_agent(question: str, tool_context: ToolContext) -> str:
    """Asks the mail agent a question about the user's mail and notes."""
    agent_tool = AgentTool(agent=mail_agent)
    answer = await agent_tool.run_async(args={"request": question}, tool_context=tool_context)
    tool_context.state["mail_answer"] = answer
    return str(answer)


def word_count(text: str) -> int:
    """Counts the words of a text."""
    return len(text.split())


root_agent = Agent(
    name="assistant",
    model="gemini-2.0-flash",
    instruction="Answer with the mail agent's help and count words.",
    tools=[call_mail_agent, word_count],
)
