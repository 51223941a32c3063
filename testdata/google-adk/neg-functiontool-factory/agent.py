from google.adk.agents import Agent

from calendar_tools import calendar_tools

root_agent = Agent(
    name="calendar_counter",
    model="gemini-2.5-flash",
    instruction="Answer questions about how busy the user's day is.",
    tools=calendar_tools,
)
