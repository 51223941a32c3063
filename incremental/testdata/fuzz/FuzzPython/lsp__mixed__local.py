go test fuzz v1
[]byte("\"\"\"A tool that only computes.\"\"\"\nfrom langchain_core.tools import tool\n\n\n@tool\ndef summarize(text: str) -> str:\n    \"\"\"Shorten a text.\"\"\"\n    return text[:200]\n")
