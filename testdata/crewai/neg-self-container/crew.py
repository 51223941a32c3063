from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task
from crewai_tools import FileWriterTool, SerperDevTool


@CrewBase
class ReportCrew:
    """Tools kept in containers that __init__ fills, read by the agents."""

    def __init__(self):
        self.writers = {
            "summary": FileWriterTool(name="Summary writer"),
            "notes": FileWriterTool(name="Notes writer"),
        }
        self.research_tools = [SerperDevTool()]

    @agent
    def researcher(self) -> Agent:
        return Agent(
            role="Researcher",
            goal="Find recent sources on {topic}",
            backstory="A careful researcher.",
            tools=self.research_tools,
        )

    @agent
    def writer(self) -> Agent:
        return Agent(
            role="Writer",
            goal="Write the report",
            backstory="A clear writer.",
            tools=list(self.writers.values()),
        )

    @task
    def research(self) -> Task:
        return Task(description="Research {topic}", expected_output="Five sources", agent=self.researcher())

    @task
    def write(self) -> Task:
        return Task(description="Write the report", expected_output="A report", agent=self.writer())

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)
