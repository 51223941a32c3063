from crewai import Agent, Crew, Task
from crewai_tools import DirectoryReadTool, FileReadTool, ScrapeWebsiteTool

from plugins import load_bundle, load_plugin


class InboxCrew:
    def __init__(self, extra_tool_name: str):
        self.tools = [ScrapeWebsiteTool()]
        self.tools.append(FileReadTool())
        self.tools.extend([DirectoryReadTool(directory=".")])
        self.tools.append(load_plugin(extra_tool_name))
        self.bundle, self.bundle_size = load_bundle()

    def assistant(self) -> Agent:
        return Agent(role="Assistant", goal="Help with {request}", backstory="Helpful.", tools=self.tools)

    def helper(self) -> Agent:
        return Agent(role="Helper", goal="Assist", backstory="Helpful.", tools=self.bundle)

    def crew(self) -> Crew:
        a, h = self.assistant(), self.helper()
        return Crew(agents=[a, h], tasks=[Task(description="{request}", expected_output="Done", agent=a)])
