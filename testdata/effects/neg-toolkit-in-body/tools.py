from crewai import Agent
from crewai.tools import tool
from langchain_community.agent_toolkits import GmailToolkit
from langchain_community.tools.gmail.create_draft import GmailCreateDraft


class CreateDraftTool:
    @tool("Create Draft")
    def create_draft(data):
        """Create an email draft from 'to|subject|message'."""
        email, subject, message = data.split("|")
        gmail = GmailToolkit()
        draft = GmailCreateDraft(api_resource=gmail.api_resource)
        result = draft({"to": [email], "subject": subject, "message": message})
        return f"\nDraft created: {result}\n"


@tool
def draft_reply(to: str, message: str) -> str:
    """Draft a reply."""
    toolkit = GmailToolkit()
    drafter = GmailCreateDraft(api_resource=toolkit.api_resource)
    return drafter.run({"to": [to], "subject": "Re:", "message": message})


writer = Agent(role="Email Response Writer", goal="draft replies", backstory="b",
               tools=[CreateDraftTool.create_draft, draft_reply])
