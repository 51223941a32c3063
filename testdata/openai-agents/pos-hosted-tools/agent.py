from agents import Agent, FileSearchTool, LocalShellTool, WebSearchTool

from runner import run_local

ops = Agent(
    name="Ops",
    tools=[WebSearchTool(), FileSearchTool(vector_store_ids=["vs_ops"]), LocalShellTool(executor=run_local)],
)
