from a2a.client import Client
from a2a.types import SendMessageRequest, StreamResponse


class RemoteAgent:
    """A connection to one remote A2A agent."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def send(self, request: SendMessageRequest) -> StreamResponse:
        async for event in self.client.send_message(request):
            return event
        raise RuntimeError("the remote agent sent no reply")
