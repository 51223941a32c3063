"""A notifier agent whose tool names match the inbox demo's."""
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from .tools import read_email, send_http

notifier = create_react_agent(ChatOpenAI(model="gpt-4o-mini"), tools=[read_email, send_http])
