from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task
from crewai_tools import ScrapeWebsiteTool

from research.tools.custom import Publisher, TeamDocs


@CrewBase
class ResearchCrew:
    @agent
    def researcher(self) -> Agent:
        return Agent(
            role="Researcher",
            goal="Summarise what the team knows and publish it",
            backstory="Knows where the documents are.",
            tools=[TeamDocs(), Publisher()],
        )

    @task
    def research_task(self) -> Task:
        return Task(
            description="Summarise {topic}",
            expected_output="A summary",
            agent=self.researcher,
            tools=[ScrapeWebsiteTool()],
        )

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)
