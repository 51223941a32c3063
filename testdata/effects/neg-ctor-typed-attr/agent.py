from smolagents import InferenceClientModel, ToolCallingAgent

from pager import TextPager
from tools import PageDownTool, QuoteTool

pager = TextPager("A long document kept in memory. " * 100)

agent = ToolCallingAgent(tools=[PageDownTool(pager), QuoteTool()], model=InferenceClientModel())
