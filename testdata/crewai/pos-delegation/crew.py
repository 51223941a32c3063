import smtplib

from crewai import Agent, Crew, Process, Task
from crewai.hooks import before_tool_call
from crewai.tools import tool
from crewai_tools import FileReadTool, ScrapeWebsiteTool


@tool("Send email")
def send_email(to: str, body: str) -> str:
    """Send an e-mail."""
    with smtplib.SMTP("smtp.example.com") as smtp:
        smtp.sendmail("crew@example.com", to, body)
    return "sent"


@before_tool_call(tools=["Send email"])
def internal_mail_only(context):
    if not context.tool_input.get("to", "").endswith("@example.com"):
        return False
    return None


scout = Agent(role="Scout", goal="Read the web", backstory="b", tools=[ScrapeWebsiteTool()], allow_delegation=True)
clerk = Agent(role="Clerk", goal="Read files", backstory="b", tools=[FileReadTool()], allow_delegation=True)
courier = Agent(role="Courier", goal="Send mail", backstory="b", tools=[send_email], allow_delegation=True)

report = Task(description="Mail a report on {topic}", expected_output="a sent mail", agent=courier, human_input=True)

crew = Crew(agents=[scout, clerk, courier], tasks=[report], process=Process.sequential)
