import asyncio

from agents import Agent, Runner, WebSearchTool

from mail import mail_agent

research_agent = Agent(name="Research", instructions="Search the web.", tools=[WebSearchTool()])

triage_agent = Agent(
    name="Triage",
    instructions="Hand the conversation to the right specialist.",
    handoffs=[research_agent, mail_agent],
)

if __name__ == "__main__":
    print(asyncio.run(Runner.run(triage_agent, "Find the release notes and mail them to me")).final_output)
