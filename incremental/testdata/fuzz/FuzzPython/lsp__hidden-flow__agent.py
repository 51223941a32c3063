go test fuzz v1
[]byte("\"\"\"An agent whose relay tool hides its flow from the builtin prover.\"\"\"\nfrom langgraph.prebuilt import create_react_agent\n\nfrom .tools import relay\n\nrelay_agent = create_react_agent(\"m\", tools=[relay])\n")
