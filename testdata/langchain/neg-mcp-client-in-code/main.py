import asyncio
import os

from langchain.agents import create_agent
from langchain_mcp_adapters.client import MultiServerMCPClient


def tavily_url():
    return f"https://mcp.tavily.com/mcp/?tavilyApiKey={os.getenv('TAVILY_API_KEY')}"


async def load_tools():
    client = MultiServerMCPClient(
        {
            "tavily": {"url": tavily_url(), "transport": "streamable_http"},
            "fetch": {"command": "uvx", "args": ["mcp-server-fetch"], "transport": "stdio"},
        }
    )
    tools = await client.get_tools()
    return tools, client


def build(mcp_tools):
    researcher = create_agent("openai:gpt-4o", tools=mcp_tools)
    return researcher


async def main():
    mcp_tools, _client = await load_tools()
    agent = build(mcp_tools)
    await agent.ainvoke({"messages": [{"role": "user", "content": "news"}]})


if __name__ == "__main__":
    asyncio.run(main())
