import smtplib

from crewai import Agent, Crew, Task
from crewai.tools import tool
from crewai_tools import FileReadTool, SerperDevTool

import hooks  # registers the pre-tool hooks


@tool("Send email")
def send_email(to: str, body: str) -> str:
    """Send an e-mail."""
    with smtplib.SMTP("smtp.example.com") as smtp:
        smtp.sendmail("crew@example.com", to, body)
    return "sent"


scout = Agent(role="Scout", goal="Read the web", backstory="b", tools=[SerperDevTool()], allow_delegation=True)
clerk = Agent(role="Clerk", goal="Read files", backstory="b", tools=[FileReadTool()], allow_delegation=True)
courier = Agent(role="Courier", goal="Send mail", backstory="b", tools=[send_email], allow_delegation=True)

crew = Crew(
    agents=[scout, clerk, courier],
    tasks=[Task(description="Report", expected_output="mail", agent=scout)],
)
