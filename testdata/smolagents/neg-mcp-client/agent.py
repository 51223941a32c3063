"""A notes agent on smolagents whose tools come from an MCP server through
smolagents' MCPClient: the filesystem server on the notes folder. Private
files and writes, nothing a stranger wrote."""
from mcp import StdioServerParameters
from smolagents import InferenceClientModel, MCPClient, ToolCallingAgent


def notes_agent() -> ToolCallingAgent:
    params = StdioServerParameters(command="npx", args=["-y", "@modelcontextprotocol/server-filesystem", "./notes"])
    client = MCPClient(server_parameters=params)
    return ToolCallingAgent(tools=client.get_tools(), model=InferenceClientModel())
