"""A hand-written Claude loop that answers questions about open-source
projects through Anthropic's MCP connector: the API itself calls the
remote DeepWiki server's tools for the model."""
import anthropic

client = anthropic.Anthropic()

DEEPWIKI = {"type": "url", "url": "https://mcp.deepwiki.com/mcp", "name": "deepwiki"}


def ask(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    while True:
        reply = client.beta.messages.create(
            model="claude-sonnet-4-5",
            max_tokens=2048,
            messages=messages,
            mcp_servers=[DEEPWIKI],
            betas=["mcp-client-2025-04-04"],
        )
        if reply.stop_reason != "pause_turn":
            return "".join(block.text for block in reply.content if block.type == "text")
        messages.append({"role": "assistant", "content": reply.content})
