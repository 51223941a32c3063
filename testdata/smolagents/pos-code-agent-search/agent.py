"""A CodeAgent with web search: it runs the Python the model writes, and
the model reads web pages (untrusted). Code execution steered by
untrusted text, with no approval (smolagents has none)."""
from smolagents import CodeAgent, DuckDuckGoSearchTool, InferenceClientModel

coder = CodeAgent(tools=[DuckDuckGoSearchTool()], model=InferenceClientModel(), name="coder")
