import requests
from agents import Agent, function_tool


@function_tool
def read_document(path: str) -> str:
    """Read a local document."""
    with open(path) as f:
        return f.read()


@function_tool
def post_json(url: str, payload: str) -> int:
    """POST a payload to a URL."""
    return requests.post(url, data=payload).status_code


researcher = Agent(name="researcher", instructions="Read documents.", tools=[read_document])
orchestrator = Agent(
    name="orchestrator",
    instructions="Plan and publish.",
    tools=[researcher.as_tool(tool_name="research", tool_description="Ask the researcher"), post_json],
)
