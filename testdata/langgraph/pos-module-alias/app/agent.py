from langgraph.prebuilt import create_react_agent

import app.tools.web as w

from .tools import mail, read_notes

assistant = create_react_agent("anthropic:claude-sonnet-4-5", tools=[mail.read_email, read_notes, w.send_http])
