import os

from smolagents import InferenceClientModel, ToolCallingAgent

from pager import WebPager
from web_tools import LookupTool, VisitTool

browser = WebPager(timeout=20)

# Two construction sites of LookupTool pass clients of different kinds (one
# acg cannot type at all): its client has no one type, so lookup fails closed.
primary = LookupTool(os.environ.get("LOOKUP_CLIENT", ""))
fallback = LookupTool(browser)

agent = ToolCallingAgent(tools=[VisitTool(browser), primary, fallback], model=InferenceClientModel())
