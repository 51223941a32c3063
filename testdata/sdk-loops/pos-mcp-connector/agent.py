"""The twin of neg-mcp-connector whose loop also connects the user's
Notion workspace: DeepWiki answers (written by third parties) beside the
user's private pages, which the Notion server can also edit."""
import os

import anthropic

client = anthropic.Anthropic()

SERVERS = [
    {"type": "url", "url": "https://mcp.deepwiki.com/mcp", "name": "deepwiki"},
    {"type": "url", "url": "https://mcp.notion.com/mcp", "name": "notion", "authorization_token": os.environ.get("NOTION_TOKEN", "")},
]


def ask(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    while True:
        reply = client.beta.messages.create(
            model="claude-sonnet-4-5",
            max_tokens=2048,
            messages=messages,
            mcp_servers=SERVERS,
            betas=["mcp-client-2025-04-04"],
        )
        if reply.stop_reason != "pause_turn":
            return "".join(block.text for block in reply.content if block.type == "text")
        messages.append({"role": "assistant", "content": reply.content})
