"""A support agent whose blocking calls run in worker threads."""
import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import requests
from agents import Agent, WebSearchTool, function_tool

_pool = ThreadPoolExecutor(max_workers=4)


def _notify(url: str, text: str) -> int:
    return requests.post(url, json={"text": text}, timeout=10).status_code


@function_tool
async def post_update(webhook_url: str, text: str) -> str:
    """Post an update to a webhook."""
    await asyncio.to_thread(requests.post, webhook_url, json={"text": text})
    return "posted"


@function_tool
async def notify(url: str, text: str) -> str:
    """Notify a channel."""
    loop = asyncio.get_running_loop()
    status = await loop.run_in_executor(None, _notify, url, text)
    return f"status {status}"


@function_tool
def notify_later(url: str, text: str) -> str:
    """Queue a notification."""
    _pool.submit(_notify, url, text)
    return "queued"


@function_tool
async def pretty(payload: str) -> str:
    """Pretty-print a JSON payload."""
    return await asyncio.to_thread(json.dumps, json.loads(payload), indent=2)


support = Agent(name="Support", tools=[WebSearchTool(), post_update, notify, notify_later, pretty])
