import json
import os

from agents import Agent, CodeInterpreterTool, ShellTool, WebSearchTool
from openai import OpenAI

EXTRA = json.loads(os.environ.get("CI_CONTAINER", "{}"))

analyst = Agent(
    name="analyst",
    tools=[
        WebSearchTool(),
        CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": {"type": "auto", "file_ids": ["file_q3_ledger"]}}),
    ],
)
browser = Agent(
    name="browser",
    tools=[
        CodeInterpreterTool(
            tool_config={
                "type": "code_interpreter",
                "container": {"type": "auto", "network_policy": {"type": "allowlist", "allowed_domains": ["pypi.org"]}},
            }
        )
    ],
)
pinned = Agent(
    name="pinned",
    tools=[CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": "cntr_shared"})],
)
spread = Agent(
    name="spread",
    tools=[CodeInterpreterTool(tool_config={"type": "code_interpreter", "container": {"type": "auto", **EXTRA}})],
)
uploaded = Agent(
    name="uploaded",
    tools=[
        WebSearchTool(),
        ShellTool(environment={"type": "container_auto", "network_policy": {"type": "disabled"}, "file_ids": ["file_crm_export"]}),
    ],
)
online = Agent(
    name="online",
    tools=[ShellTool(environment={"type": "container_auto", "network_policy": {"type": "allowlist", "allowed_domains": ["api.github.com"]}})],
)
elsewhere = Agent(
    name="elsewhere",
    tools=[ShellTool(environment={"type": "container_reference", "container_id": os.environ.get("SHELL_CONTAINER", "")})],
)

client = OpenAI()
online_box = client.containers.create(name="online", network_policy={"type": "allowlist", "allowed_domains": ["pypi.org"]})
reuses_online = Agent(
    name="reuses_online",
    tools=[WebSearchTool(), ShellTool(environment={"type": "container_reference", "container_id": online_box.id})],
)
