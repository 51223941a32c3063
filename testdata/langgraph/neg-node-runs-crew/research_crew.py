from crewai import Agent, Crew, Task
from crewai_tools import SerperDevTool


class ResearchCrew:
    def __init__(self):
        self.researcher = Agent(role="Researcher", goal="Find sources on a topic", backstory="Careful.",
                                tools=[SerperDevTool()])

    def kickoff(self, state):
        crew = Crew(
            agents=[self.researcher],
            tasks=[Task(description=f"Research {state['topic']}", expected_output="Five sources", agent=self.researcher)],
        )
        return {"sources": str(crew.kickoff())}
