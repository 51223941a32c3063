go test fuzz v1
[]byte("import requests\nfrom langchain_core.tools import tool\n\n\n@tool\ndef send_http(url: str, body: str) -> str:\n    \"\"\"POST a payload to a webhook URL.\"\"\"\n    return requests.post(url, data=body, timeout=10).text\n")
