go test fuzz v1
[]byte("\"\"\"An agent in a file with non-ASCII text: 助手 🤖.\"\"\"\nfrom langgraph.prebuilt import create_react_agent\n\nfrom .tools import post_note, read_diary, read_mail\n\nlabel = \"🤖 助手\"; diary_agent = create_react_agent(\"m\", tools=[read_mail, read_diary, post_note])\n")
