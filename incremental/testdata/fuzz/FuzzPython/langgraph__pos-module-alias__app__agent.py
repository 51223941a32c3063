go test fuzz v1
[]byte("from langgraph.prebuilt import create_react_agent\n\nimport app.tools.web as w\n\nfrom .tools import mail, read_notes\n\nassistant = create_react_agent(\"anthropic:claude-sonnet-4-5\", tools=[mail.read_email, read_notes, w.send_http])\n")
