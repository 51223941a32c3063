from google.adk.agents import Agent
from google.adk.tools import google_search
from google.adk.tools.agent_tool import AgentTool

from mail import delete_message, read_inbox

news_agent = Agent(
    name="news_reader",
    model="gemini-2.5-flash",
    instruction="Search the web for news.",
    tools=[google_search],
)

mail_agent = Agent(
    name="mail_manager",
    model="gemini-2.5-flash",
    instruction="Manage the user's inbox.",
    tools=[read_inbox, delete_message],
)

root_agent = Agent(
    name="assistant",
    model="gemini-2.5-flash",
    instruction="Answer with the news agent; hand inbox work to the mail agent.",
    tools=[AgentTool(agent=news_agent), AgentTool(agent=mail_agent)],
)
