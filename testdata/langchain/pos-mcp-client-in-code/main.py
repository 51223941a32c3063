from langchain_mcp_adapters.client import MultiServerMCPClient
from langgraph.prebuilt import create_react_agent


async def run():
    client = MultiServerMCPClient(
        {
            "crm": {"command": "python", "args": ["crm_server.py"], "transport": "stdio"},
            "files": {
                "command": "npx",
                "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"],
                "transport": "stdio",
            },
        }
    )
    assistant = create_react_agent("openai:gpt-4o", await client.get_tools())
    return assistant
