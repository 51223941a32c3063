import uuid

from a2a.client import create_client
from a2a.types import Message, Part, Role, SendMessageRequest
from google.adk.agents import Agent

from remote import RemoteAgent


class Router:
    """Delegates tasks to remote A2A agents (a weather and a listings agent)."""

    def __init__(self) -> None:
        self.remotes: dict[str, RemoteAgent] = {}

    async def connect(self, name: str, url: str) -> None:
        self.remotes[name] = RemoteAgent(await create_client(url))

    async def send_message(self, agent_name: str, task: str) -> str:
        """Send a task to the remote agent named agent_name and return its reply."""
        if agent_name not in self.remotes:
            raise ValueError(f"unknown agent {agent_name}")
        remote = self.remotes[agent_name]
        request = SendMessageRequest(
            message=Message(role=Role.ROLE_USER, message_id=str(uuid.uuid4()), parts=[Part(text=task)])
        )
        reply = await remote.send(request)
        return reply.SerializeToString().decode("utf-8", "replace")

    def create_agent(self) -> Agent:
        return Agent(
            model="gemini-2.5-flash",
            name="router",
            instruction="Delegate each request to the remote agent that can answer it.",
            tools=[self.send_message],
        )
