import imaplib
import os
import time

from langchain_openai import ChatOpenAI


class Nodes:
    def __init__(self):
        self.llm = ChatOpenAI(model="gpt-4o-mini")

    def check_email(self, state):
        conn = imaplib.IMAP4_SSL(os.environ["IMAP_HOST"])
        _, data = conn.fetch(b"1:10", "(RFC822)")
        return {"emails": [part[1].decode() for part in data if isinstance(part, tuple)]}

    def summarise(self, state):
        return {"summary": self.llm.invoke("Summarise:\n" + "\n".join(state["emails"])).content}

    def wait_next_run(self, state):
        time.sleep(180)
        return {"emails": []}

    def new_emails(self, state):
        return "end" if not state["emails"] else "continue"
