"""A search helper on smolagents: the base toolbox (DuckDuckGo search,
visiting pages, the restricted Python interpreter) and nothing private or
outward of its own: web content only."""
from smolagents import InferenceClientModel, ToolCallingAgent

searcher = ToolCallingAgent(tools=[], model=InferenceClientModel(), add_base_tools=True, name="searcher")
