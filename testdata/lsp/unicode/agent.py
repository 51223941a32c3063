"""An agent in a file with non-ASCII text: 助手 🤖."""
from langgraph.prebuilt import create_react_agent

from .tools import post_note, read_diary, read_mail

label = "🤖 助手"; diary_agent = create_react_agent("openai:gpt-4o-mini", tools=[read_mail, read_diary, post_note])
