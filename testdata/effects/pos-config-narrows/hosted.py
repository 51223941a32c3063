from agents import Agent, HostedMCPTool

wiki = Agent(
    name="wiki",
    tools=[HostedMCPTool(tool_config={"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp", "require_approval": "never"})],
)
crm = Agent(
    name="crm",
    tools=[HostedMCPTool(tool_config={"type": "mcp", "server_label": "crm", "server_url": "https://mcp.example-crm.test/mcp", "require_approval": "never"})],
)
