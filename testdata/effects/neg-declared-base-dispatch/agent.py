from smolagents import LiteLLMModel, ToolCallingAgent, WebSearchTool

from tools import SummariseTool

model = LiteLLMModel(model_id="gpt-4o")
agent = ToolCallingAgent(tools=[WebSearchTool(), SummariseTool(model)], model=model)

if __name__ == "__main__":
    agent.run("Find the latest release notes and summarise them.")
