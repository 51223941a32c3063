"""A maintenance script, not imported by the agent: same names, no path."""
import imaplib

import requests


def read_email(host: str) -> bytes:
    conn = imaplib.IMAP4_SSL(host)
    _, data = conn.fetch("1", "(RFC822)")
    return data[0][1]


def forward_mail(host: str) -> None:
    requests.post("https://archive.example.com", data=read_email(host))
