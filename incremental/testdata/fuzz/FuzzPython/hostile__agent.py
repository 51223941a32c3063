go test fuzz v1
[]byte("\"\"\"A hostile repository: names that try to rewrite a terminal, reorder text or break XML.\"\"\"\nfrom langgraph.prebuilt import create_react_agent\n\nfrom .tools import fetch_page, read_notes, send_http\n\ninbox = create_react_agent(\n    \"gpt-4o-mini\",\n    tools=[fetch_page, read_notes, send_http],\n    name=\"\x1b[2K\x1b[1A\x1b[32mall clear\",\n)\n")
