"""Tools built with the SDK's FunctionTool class instead of @function_tool:
a JSON schema and an on_invoke_tool handler that parses the arguments."""
from typing import Any

from agents import Agent, FunctionTool, RunContextWrapper, WebSearchTool
from pydantic import BaseModel


class Profile(BaseModel):
    username: str
    age: int


async def summarise_profile(ctx: RunContextWrapper[Any], args: str) -> str:
    profile = Profile.model_validate_json(args)
    return f"{profile.username} is {profile.age} years old"


schema = Profile.model_json_schema()
schema["additionalProperties"] = False

profile_tool = FunctionTool(
    name="summarise_profile",
    description="Summarise a user profile the model extracted.",
    params_json_schema=schema,
    on_invoke_tool=summarise_profile,
)

agent = Agent(
    name="Profiler",
    instructions="Extract the user's profile from the conversation, look things up on the web, and summarise it.",
    tools=[WebSearchTool(), profile_tool],
)
