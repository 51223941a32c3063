"""An agent over a prebuilt shell tool, a tool from outside the tree, and a local one."""
from langchain_community.tools import ShellTool
from langgraph.prebuilt import create_react_agent
from vendor_sdk.tools import crm_lookup

from .local import summarize

ops_agent = create_react_agent("openai:gpt-4o-mini", tools=[ShellTool(), crm_lookup, summarize])
