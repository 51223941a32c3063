import sqlite3
from datetime import datetime

import httpx
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("support")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="lookup_customer", description="Find a customer", inputSchema={"type": "object"}),
        types.Tool(name="fetch_url", description="Fetch a URL", inputSchema={"type": "object"},
                   annotations=types.ToolAnnotations(openWorldHint=True)),
        types.Tool(name="get_time", description="Current time", inputSchema={"type": "object"}),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "lookup_customer":
        db = sqlite3.connect("customers.db")
        row = db.execute("SELECT name, email FROM customers WHERE id = ?", (arguments["id"],)).fetchone()
        return [types.TextContent(type="text", text=str(row))]
    elif name == "fetch_url":
        body = httpx.get(arguments["url"]).text
        return [types.TextContent(type="text", text=body)]
    elif name == "get_time":
        return [types.TextContent(type="text", text=datetime.now().isoformat())]
    raise ValueError(f"unknown tool {name}")
