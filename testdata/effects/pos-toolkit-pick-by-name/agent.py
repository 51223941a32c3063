from langchain_community.agent_toolkits import GmailToolkit
from langgraph.prebuilt import create_react_agent

toolkit = GmailToolkit()
mailer = create_react_agent("openai:gpt-4o", [t for t in toolkit.get_tools() if t.name != "create_gmail_draft"])


def wanted(name: str) -> bool:
    return name.startswith("get_")


any_kit = create_react_agent("openai:gpt-4o", [t for t in toolkit.get_tools() if wanted(t.name)])
