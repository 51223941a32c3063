import asyncio
import json

from openai import OpenAI

from agents import Agent, CodeInterpreterTool, ProgrammaticToolCallingTool, Runner, ShellTool, ToolSearchTool, tool_namespace
from agents.decorators import tool
from agents.tool import CodeInterpreter

STOCK = {"lamp": 12, "dock": 3}
PRICES = {"lamp": "19.90", "dock": "89.00"}

calculator = Agent(
    name="calculator",
    tools=[CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": {"type": "auto"}})],
)
offline = Agent(
    name="offline",
    tools=[CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": {"type": "auto", "network_policy": {"type": "disabled"}}})],
)
bare = Agent(name="bare", tools=[CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": {"type": "auto"}})])
# The config built with the SDK's TypedDict and passed by position.
typed = Agent(name="typed", tools=[CodeInterpreterTool(CodeInterpreter(type="code_interpreter", container={"type": "auto"}))])


@tool(defer_loading=True)
def stock_level(sku: str) -> str:
    """Units in stock for one SKU."""
    return json.dumps({"sku": sku, "units": STOCK.get(sku, 0)})


@tool(defer_loading=True)
def price_of(sku: str) -> str:
    """Price of one SKU."""
    return f"{sku}: {PRICES[sku]}"


catalog_tools = tool_namespace(name="catalog", description="Stock and prices.", tools=[stock_level, price_of])

planner = Agent(
    name="planner",
    tools=[*catalog_tools, ToolSearchTool(), ProgrammaticToolCallingTool()],
)

client = OpenAI()
scratch = client.containers.create(name="scratch", network_policy={"type": "disabled"})
scratch_shell = Agent(
    name="scratch_shell",
    tools=[ShellTool(environment={"type": "container_reference", "container_id": scratch.id})],
)


def container_of(responses):
    for response in responses:
        for item in response.output:
            env = getattr(item, "environment", None)
            if env is not None:
                return env.container_id
    return None


async def main() -> None:
    first = Agent(
        name="first",
        tools=[ShellTool(environment={"type": "container_auto", "network_policy": {"type": "disabled"}})],
    )
    result = await Runner.run(first, "Build the report in /mnt/data.")
    cid = container_of(result.raw_responses)
    again = Agent(
        name="again",
        tools=[ShellTool(environment={"type": "container_reference", "container_id": cid})],
    )
    await Runner.run(again, "List /mnt/data.")


if __name__ == "__main__":
    asyncio.run(main())
