"""A summary crew: search the web, then leave the summary as a Gmail draft
for the user to review and send themselves."""
from crewai import Agent, Crew, Task
from crewai.tools import BaseTool
from crewai_tools import SerperDevTool
from pydantic import BaseModel, Field

from gmail_utils import authenticate_gmail, create_draft, create_message


class DraftInput(BaseModel):
    body: str = Field(..., description="The body of the draft.")


class GmailDraftTool(BaseTool):
    name: str = "GmailDraftTool"
    description: str = "Save a summary as a Gmail draft addressed to the user."
    args_schema: type[BaseModel] = DraftInput

    def _run(self, body: str) -> str:
        message = create_message("me@example.com", "Daily summary", body)
        draft = create_draft(authenticate_gmail(), "me", message)
        return f"draft {draft['id']} saved"


writer = Agent(
    role="Summary writer",
    goal="Summarise today's news about the company and save it as a draft",
    backstory="You write short, factual summaries.",
    tools=[SerperDevTool(), GmailDraftTool()],
)
task = Task(description="Summarise today's news and save a draft.", expected_output="A draft id.", agent=writer)
crew = Crew(agents=[writer], tasks=[task])
