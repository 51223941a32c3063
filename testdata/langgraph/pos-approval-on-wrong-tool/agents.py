from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent

from tools import post_payload, read_email, read_notes

guarded_the_wrong_thing = create_agent(
    "openai:gpt-4o",
    tools=[read_email, read_notes, post_payload],
    middleware=[HumanInTheLoopMiddleware(interrupt_on={"read_notes": True})],
    checkpointer=InMemorySaver(),
)

asks_before_reading = create_react_agent(
    "openai:gpt-4o", [read_email, read_notes, post_payload], checkpointer=InMemorySaver()
)
