import os
import tempfile

import requests
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


def _is_pdf(path: str) -> bool:
    with open(path, "rb") as fh:
        return fh.read(5) == b"%PDF-"


@tool
def read_document(url: str) -> str:
    """Download a document, check its kind from a temporary copy, return its text."""
    response = requests.get(url, timeout=30)
    handle, temp_path = tempfile.mkstemp()
    fh = os.fdopen(handle, "wb")
    try:
        fh.write(response.content)
        fh.close()
        if _is_pdf(temp_path):
            return "a PDF document"
        return response.text[:4000]
    finally:
        os.unlink(temp_path)


@tool
def keep_document(url: str, name: str) -> str:
    """Download a document into the user's downloads folder."""
    response = requests.get(url, timeout=30)
    path = os.path.join(os.path.expanduser("~/Downloads"), name)
    with open(path, "wb") as fh:
        fh.write(response.content)
    return path


reader = create_react_agent("openai:gpt-4.1", tools=[read_document, keep_document])
