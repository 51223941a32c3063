from agents import Agent, FileSearchTool, HostedMCPTool, ShellTool, WebSearchTool

from shell_exec import executor

agent = Agent(
    name="Research assistant",
    tools=[
        WebSearchTool(),
        FileSearchTool(vector_store_ids=["vs_123"]),
        HostedMCPTool(
            tool_config={
                "type": "mcp",
                "server_label": "crm",
                "server_url": "https://crm.example.com/mcp",
                "require_approval": "always",
            }
        ),
        ShellTool(executor=executor, needs_approval=True),
    ],
)
