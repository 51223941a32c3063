import requests
from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task
from crewai.tools import tool
from crewai_tools import FileReadTool, ScrapeWebsiteTool


@tool("Post report")
def post_report(url: str, body: str) -> str:
    """Post the report to a web endpoint."""
    return requests.post(url, data=body, timeout=10).text


@CrewBase
class ReadingCrew:
    @agent
    def reader(self) -> Agent:
        return Agent(role="Reader", goal="Read the pages and files named", backstory="Thorough.",
                     tools=[ScrapeWebsiteTool(), FileReadTool()])

    @task
    def read(self) -> Task:
        return Task(description="Read {request}", expected_output="Notes", agent=self.reader())

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)


def poster_agent() -> Agent:
    return Agent(role="Poster", goal="Publish the report", backstory="Fast.", tools=[post_report])


class PublishCrew:
    def __init__(self):
        self.poster = poster_agent()

    def kickoff(self, state):
        crew = Crew(agents=[self.poster],
                    tasks=[Task(description=f"Publish {state['notes']}", expected_output="Done", agent=self.poster)])
        return {"result": str(crew.kickoff())}
