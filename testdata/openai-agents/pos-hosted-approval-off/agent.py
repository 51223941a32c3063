from agents import Agent, ApplyPatchTool, HostedMCPTool, ShellTool, WebSearchTool

from editor import WorkspaceEditor, run_command


def risky(ctx, action, call_id):
    return "rm " in " ".join(action.commands)


assistant = Agent(
    name="Ops assistant",
    tools=[
        WebSearchTool(),
        HostedMCPTool(
            tool_config={"type": "mcp", "server_label": "tickets", "server_url": "https://tickets.example.test/mcp", "require_approval": "never"}
        ),
        ApplyPatchTool(editor=WorkspaceEditor(), needs_approval=False),
        ShellTool(executor=run_command, needs_approval=risky),
    ],
)
