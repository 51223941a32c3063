go test fuzz v1
[]byte("\"\"\"An agent over a prebuilt shell tool, a tool from outside the tree, and a local one.\"\"\"\nfrom langchain_community.tools import ShellTool\nfrom langgraph.prebuilt import create_react_agent\nfrom vendor_sdk.tools import crm_lookup\n\nfrom .local import summarize\n\nops_agent = create_react_agent(\"m\", tools=[ShellTool(), crm_lookup, summarize])\n")
