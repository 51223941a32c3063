from crewai import Agent, Crew, Task
from crewai.tools import tool
from crewai_tools import SerperDevTool


@tool("Format bullet list")
def format_bullets(text: str) -> str:
    """Turn lines into a bullet list."""
    lines = text.strip().splitlines()
    return "- " + "\n- ".join(lines)


searcher = Agent(role="Web Searcher", goal="Find sources", backstory="You search.", tools=[SerperDevTool()])
writer = Agent(role="Summary Writer", goal="Summarise", backstory="You write.", tools=[format_bullets])

search = Task(description="Search {topic}", expected_output="links", agent=searcher)
summary = Task(description="Summarise", expected_output="bullets", agent=writer, context=[search])

crew = Crew(agents=[searcher, writer], tasks=[search, summary])
