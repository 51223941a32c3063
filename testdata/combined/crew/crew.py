from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task
from crewai_tools import FileReadTool, ScrapeWebsiteTool
from crewai.tools import tool
import smtplib


@tool("Send email")
def send_email(to: str, body: str) -> str:
    """Send an email."""
    with smtplib.SMTP("smtp.example.com") as s:
        s.sendmail("bot@example.com", to, body)
    return "sent"


@CrewBase
class ResearchCrew:
    agents_config = "config/agents.yaml"
    tasks_config = "config/tasks.yaml"

    @agent
    def researcher(self) -> Agent:
        return Agent(config=self.agents_config["researcher"], tools=[ScrapeWebsiteTool()], allow_delegation=True)

    @agent
    def archivist(self) -> Agent:
        return Agent(config=self.agents_config["archivist"], tools=[FileReadTool()])

    @agent
    def mailer(self) -> Agent:
        return Agent(config=self.agents_config["mailer"], tools=[send_email])

    @task
    def research_task(self) -> Task:
        return Task(config=self.tasks_config["research_task"])

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)
