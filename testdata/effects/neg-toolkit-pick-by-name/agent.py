from langchain_community.agent_toolkits import GmailToolkit
from langgraph.prebuilt import create_react_agent

toolkit = GmailToolkit()
drafting = [t for t in toolkit.get_tools() if t.name in ("create_gmail_draft", "search_gmail")]
drafter = create_react_agent("openai:gpt-4o", drafting)

reader = create_react_agent("openai:gpt-4o", [t for t in GmailToolkit().get_tools() if t.name == "get_gmail_thread"])
