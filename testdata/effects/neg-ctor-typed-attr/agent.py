from smolagents import InferenceClientModel, ToolCallingAgent

from pager import TextPager
from tools import PageDownTool, QuoteTool

pager = TextPager("A long document kept in memory. " * 100)

agent = ToolCallingAgent(tools=[PageDownTool(pager), QuoteTool()], model=InferenceClientModel())


def spare_tool() -> PageDownTool:
    # Built without a pager: self.pager stays None, so this instance runs
    # no pager method, and the type the other site gives still holds.
    return PageDownTool()
