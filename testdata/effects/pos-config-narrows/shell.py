from agents import Agent, ShellTool

POLICY = {"type": "disabled"}

sandboxed = Agent(
    name="sandboxed",
    tools=[ShellTool(environment={"type": "container_auto", "network_policy": POLICY})],
)
allowlisted = Agent(
    name="allowlisted",
    tools=[ShellTool(environment={"type": "container_auto", "network_policy": {"type": "allowlist", "allowed_domains": ["pypi.org"]}})],
)
reused = Agent(
    name="reused",
    tools=[ShellTool(environment={"type": "container_reference", "container_id": "cntr_1"})],
)
