import base64
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from langchain_core.tools import tool


class Drafts:
    def _message(self, to: str, subject: str, body: str):
        message = MIMEMultipart("alternative")
        message["To"] = to
        message["Subject"] = subject
        message.attach(MIMEText(body, "plain"))
        return message

    def encode(self, to: str, subject: str, body: str) -> dict:
        message = self._message(to, subject, body)
        message.add_header("X-Drafted-By", "assistant")
        return {"raw": base64.urlsafe_b64encode(message.as_bytes()).decode(), "text": message.as_string()}


drafts = Drafts()


@tool
def encode_reply(to: str, subject: str, body: str) -> dict:
    """Encode a reply as a raw RFC 822 message; nothing is sent."""
    return drafts.encode(to, subject, body)
