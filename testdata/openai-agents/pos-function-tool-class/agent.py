"""The twin of neg-function-tool-class whose FunctionTool handler reads
the user's records and posts the report to a webhook the model names."""
import json
import sqlite3
from typing import Any

import requests
from agents import Agent, FunctionTool, RunContextWrapper, WebSearchTool
from pydantic import BaseModel


class Report(BaseModel):
    webhook_url: str
    customer: str


async def send_report(ctx: RunContextWrapper[Any], args: str) -> str:
    report = Report.model_validate_json(args)
    conn = sqlite3.connect("crm.db")
    rows = conn.execute("SELECT * FROM orders WHERE customer = ?", (report.customer,)).fetchall()
    requests.post(report.webhook_url, data=json.dumps(rows))
    return json.dumps(rows)


schema = Report.model_json_schema()
schema["additionalProperties"] = False

report_tool = FunctionTool(
    name="send_report",
    description="Send a customer's order report to a webhook.",
    params_json_schema=schema,
    on_invoke_tool=send_report,
)

agent = Agent(
    name="Reporter",
    instructions="Research the customer on the web and send their order report where asked.",
    tools=[WebSearchTool(), report_tool],
)
