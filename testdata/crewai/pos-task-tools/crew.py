from crewai import Agent, Crew, Task
from crewai_tools import DirectoryReadTool, MCPServerAdapter
from mcp import StdioServerParameters

files = StdioServerParameters(command="npx", args=["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared"])

with MCPServerAdapter(files) as fs_tools:
    assistant = Agent(
        role="Mail Assistant",
        goal="Answer mail",
        backstory="b",
        tools=fs_tools,
        apps=["gmail"],
        mcps=["https://mcp.tavily.com/mcp/?tavilyApiKey=tvly-FAKEkeyABCDEF123456"],
    )
    triage = Task(description="Triage the inbox", expected_output="a summary", agent=assistant,
                  tools=[DirectoryReadTool(directory="/srv/shared")])
    Crew(agents=[assistant], tasks=[triage]).kickoff()
