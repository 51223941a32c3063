from langchain_community.agent_toolkits import GmailToolkit
from langchain_community.tools.gmail.send_message import GmailSendMessage
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def send_reply(to: str, message: str) -> str:
    """Send a reply."""
    gmail = GmailToolkit()
    send = GmailSendMessage(api_resource=gmail.api_resource)
    return send({"to": [to], "subject": "Re:", "message": message})


@tool
def use_gmail(action: int, payload: dict) -> str:
    """Run one of the Gmail tools."""
    tools = GmailToolkit().get_tools()
    return tools[action].invoke(payload)


mailer = create_react_agent("openai:gpt-4o", [send_reply, use_gmail])
