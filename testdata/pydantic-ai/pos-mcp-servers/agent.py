"""A PydanticAI agent given its MCP server the older way, mcp_servers=[...]:
the Slack server reads channel history (others' messages, private
conversations) and posts messages. No tool needs approval."""
import os

from pydantic_ai import Agent
from pydantic_ai.mcp import MCPServerStdio

slack = MCPServerStdio(
    "npx", ["-y", "@modelcontextprotocol/server-slack"],
    env={"SLACK_BOT_TOKEN": os.getenv("SLACK_BOT_TOKEN"), "SLACK_TEAM_ID": os.getenv("SLACK_TEAM_ID")},
)

slack_agent = Agent("openai:gpt-5", name="slack_agent", mcp_servers=[slack])
