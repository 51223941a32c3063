from langgraph.prebuilt import create_react_agent

from assistant.tools import get_tools

tools = get_tools(["write_email", "check_calendar"], include_gmail=False)
assistant = create_react_agent("openai:gpt-4o", tools)
