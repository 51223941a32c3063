from crewai import Agent, Crew, Task
from crewai_tools import DirectoryReadTool, FileReadTool, ScrapeWebsiteTool

from plugins import load_plugin


class InboxCrew:
    def __init__(self, extra_tool_name: str):
        self.tools = [ScrapeWebsiteTool()]
        self.tools.append(FileReadTool())
        self.tools.extend([DirectoryReadTool(directory=".")])
        self.tools.append(load_plugin(extra_tool_name))

    def assistant(self) -> Agent:
        return Agent(role="Assistant", goal="Help with {request}", backstory="Helpful.", tools=self.tools)

    def crew(self) -> Crew:
        a = self.assistant()
        return Crew(agents=[a], tasks=[Task(description="{request}", expected_output="Done", agent=a)])
