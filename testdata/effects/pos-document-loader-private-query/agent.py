from pathlib import Path

from langchain_community.document_loaders import WikipediaLoader
from langchain_community.document_loaders.notion import NotionDirectoryLoader
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def look_up_my_notes(name: str) -> str:
    """Look up on Wikipedia what a note of the user's is about."""
    text = Path("notes", name).read_text()
    docs = WikipediaLoader(query=text[:300]).load()
    return docs[0].page_content if docs else ""


@tool
def load_workspace(path: str) -> str:
    """Load the user's Notion export."""
    return str(NotionDirectoryLoader(path).load())


assistant = create_react_agent("openai:gpt-4o", tools=[look_up_my_notes, load_workspace])
