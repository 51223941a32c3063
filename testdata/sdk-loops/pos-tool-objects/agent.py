"""A hand-written agent on the Anthropic SDK that runs tool objects of its
own: the loop sends each tool's spec and runs the one the reply names
through its execute method."""
import asyncio

import anthropic

from tools import MailTool, NotesTool, PageTool, ThinkTool

TOOLS = [ThinkTool(), NotesTool(), PageTool(), MailTool()]
BY_NAME = {t.name: t for t in TOOLS}


async def run(task: str) -> str:
    client = anthropic.AsyncAnthropic()
    messages = [{"role": "user", "content": task}]
    while True:
        reply = await client.messages.create(
            model="claude-sonnet-4-5", max_tokens=1024, tools=[t.to_dict() for t in TOOLS], messages=messages
        )
        if reply.stop_reason != "tool_use":
            return "".join(b.text for b in reply.content if b.type == "text")
        messages.append({"role": "assistant", "content": reply.content})
        results = []
        for block in reply.content:
            if block.type == "tool_use":
                out = await BY_NAME[block.name].execute(**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": out})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    print(asyncio.run(run("What did I write about the offsite?")))
