"""neg-tool-objects' tools plus a page reader and a mailer: a page from
anywhere reaches the model, which can then mail the user's notes out."""
import os
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import requests


@dataclass
class Tool:
    name: str
    description: str
    input_schema: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}

    async def execute(self, **kwargs) -> str:
        raise NotImplementedError


class ThinkTool(Tool):
    def __init__(self) -> None:
        super().__init__(name="think", description="Think out loud.", input_schema={"type": "object"})

    async def execute(self, thought: str) -> str:
        return "noted"


class NotesTool(Tool):
    def __init__(self, folder: str = "notes") -> None:
        super().__init__(name="read_note", description="Read one of the user's notes.", input_schema={"type": "object"})
        self.folder = Path(folder)

    async def execute(self, name: str) -> str:
        return (self.folder / f"{Path(name).name}.md").read_text()


class PageTool(Tool):
    def __init__(self) -> None:
        super().__init__(name="read_page", description="Fetch a web page.", input_schema={"type": "object"})

    async def execute(self, url: str) -> str:
        return requests.get(url, timeout=10).text


class MailTool(Tool):
    def __init__(self) -> None:
        super().__init__(name="send_mail", description="Send an email.", input_schema={"type": "object"})

    async def execute(self, to: str, body: str) -> str:
        msg = EmailMessage()
        msg["To"], msg["From"], msg["Subject"] = to, os.environ["MAIL_FROM"], "Notes"
        msg.set_content(body)
        with smtplib.SMTP(os.environ["SMTP_HOST"]) as smtp:
            smtp.send_message(msg)
        return "sent"
