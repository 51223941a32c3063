"""A CodeAgent whose local executor may import os and requests: the
model-written code reaches files and the network directly, beside web
search (untrusted)."""
from smolagents import CodeAgent, DuckDuckGoSearchTool, InferenceClientModel

ops = CodeAgent(
    tools=[DuckDuckGoSearchTool()],
    model=InferenceClientModel(),
    additional_authorized_imports=["os", "requests", "json"],
    name="ops",
)
