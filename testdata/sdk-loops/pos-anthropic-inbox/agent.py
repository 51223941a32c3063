"""An inbox assistant written by hand on the Anthropic SDK: a loop asks
the model, runs the tool it names, and feeds the result back. It reads
mail strangers sent and can send mail, with no one asked."""
import imaplib
import os
import smtplib
from email.message import EmailMessage

import anthropic

TOOLS = [
    {
        "name": "read_email",
        "description": "Return the latest message in the inbox.",
        "input_schema": {"type": "object", "properties": {}},
    },
    {
        "name": "send_email",
        "description": "Send an email.",
        "input_schema": {
            "type": "object",
            "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
            "required": ["to", "body"],
        },
    },
]


def read_email() -> str:
    box = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
    box.login(os.environ["IMAP_USER"], os.environ["IMAP_PASSWORD"])
    box.select("INBOX")
    _, data = box.fetch("1", "(RFC822)")
    return data[0][1].decode(errors="replace")


def send_email(to: str, body: str) -> str:
    msg = EmailMessage()
    msg["To"], msg["From"], msg["Subject"] = to, os.environ["IMAP_USER"], "Re:"
    msg.set_content(body)
    with smtplib.SMTP(os.environ["SMTP_HOST"]) as smtp:
        smtp.send_message(msg)
    return "sent"


HANDLERS = {"read_email": read_email, "send_email": send_email}


def run(task: str) -> str:
    client = anthropic.Anthropic()
    messages = [{"role": "user", "content": task}]
    while True:
        reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, tools=TOOLS, messages=messages)
        if reply.stop_reason != "tool_use":
            return "".join(b.text for b in reply.content if b.type == "text")
        messages.append({"role": "assistant", "content": reply.content})
        results = []
        for block in reply.content:
            if block.type == "tool_use":
                out = HANDLERS[block.name](**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": out})
        messages.append({"role": "user", "content": results})
