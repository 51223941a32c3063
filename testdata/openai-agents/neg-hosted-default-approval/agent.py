from agents import Agent, ApplyPatchTool, HostedMCPTool, ShellTool, WebSearchTool

from editor import WorkspaceEditor, run_command

assistant = Agent(
    name="Ops assistant",
    tools=[
        WebSearchTool(),
        HostedMCPTool(tool_config={"type": "mcp", "server_label": "tickets", "server_url": "https://tickets.example.test/mcp"}),
        ApplyPatchTool(editor=WorkspaceEditor(), needs_approval=True),
        ShellTool(executor=run_command, needs_approval=True),
    ],
)
