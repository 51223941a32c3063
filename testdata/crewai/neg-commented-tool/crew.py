from crewai import Agent, Crew, Task
from crewai_tools import SerperDevTool

researcher = Agent(
    role="Researcher",
    goal="Find recent articles on a topic",
    backstory="A careful researcher.",
    tools=[
        SerperDevTool(),
        # WebsiteSearchTool(),
        # ScrapeWebsiteTool(website_url="https://example.com"),
    ],
)

task = Task(description="Research {topic}", expected_output="Five links", agent=researcher)
crew = Crew(agents=[researcher], tasks=[task])
