"""A crew whose analyst runs code without listing a tool: allow_code_execution
gives it crewAI's code interpreter. Its twin does not ask for it."""
from crewai import Agent, Crew, Task
from crewai_tools import ScrapeWebsiteTool

analyst = Agent(
    role="Data Analyst",
    goal="Answer questions about web pages with code",
    backstory="You scrape pages and compute with Python.",
    tools=[ScrapeWebsiteTool()],
    allow_code_execution=True,
)

writer = Agent(
    role="Writer",
    goal="Summarise pages",
    backstory="You scrape pages and write summaries.",
    tools=[ScrapeWebsiteTool()],
    allow_code_execution=False,
)

crew = Crew(
    agents=[analyst, writer],
    tasks=[
        Task(description="Analyse {url}", expected_output="numbers", agent=analyst),
        Task(description="Summarise {url}", expected_output="a summary", agent=writer),
    ],
)
