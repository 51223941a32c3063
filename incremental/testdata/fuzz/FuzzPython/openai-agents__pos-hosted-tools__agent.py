go test fuzz v1
[]byte("from agents import Agent, FileSearchTool, LocalShellTool, WebSearchTool\n\nfrom runner import run_local\n\nops = Agent(\n    name=\"Ops\",\n    tools=[WebSearchTool(), FileSearchTool(vector_store_ids=[\"vs_ops\"]), LocalShellTool(executor=run_local)],\n)\n")
