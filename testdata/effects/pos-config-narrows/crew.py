from crewai import Agent, Crew, Task
from crewai_tools import ScrapeWebsiteTool, WebsiteSearchTool

fixed_page = ScrapeWebsiteTool(website_url="https://status.example.com/")
fixed_site = WebsiteSearchTool(website="https://docs.example.com/")
any_page = ScrapeWebsiteTool()

watcher = Agent(role="Status watcher", goal="Report the status page", backstory="Ops.",
                tools=[fixed_page, fixed_site])
browser = Agent(role="Browser", goal="Read pages", backstory="Research.", tools=[any_page])

crew = Crew(agents=[watcher, browser], tasks=[
    Task(description="Summarise the status page", expected_output="A summary", agent=watcher),
    Task(description="Read the page the user names", expected_output="A summary", agent=browser),
])
