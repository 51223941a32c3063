from langgraph.prebuilt import create_react_agent

from assistant.tools import get_tools

mail_assistant = create_react_agent(
    "openai:gpt-4o",
    get_tools(["fetch_emails_tool", "send_email_tool", "write_email"], include_gmail=True),
)
drafts = create_react_agent("openai:gpt-4o", get_tools())
