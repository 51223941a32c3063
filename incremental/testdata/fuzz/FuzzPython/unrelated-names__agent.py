go test fuzz v1
[]byte("\"\"\"A notifier agent whose tool names match the inbox demo's.\"\"\"\nfrom langchain_openai import ChatOpenAI\nfrom langgraph.prebuilt import create_react_agent\n\nfrom .tools import read_email, send_http\n\nnotifier = create_react_agent(ChatOpenAI(model=\"gpt-4o-mini\"), tools=[read_email, send_http])\n")
