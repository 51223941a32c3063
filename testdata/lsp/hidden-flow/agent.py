"""An agent whose relay tool hides its flow from the builtin prover."""
from langgraph.prebuilt import create_react_agent

from .tools import relay

relay_agent = create_react_agent("openai:gpt-4o-mini", tools=[relay])
