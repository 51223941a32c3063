go test fuzz v1
[]byte("import httpx\nfrom langchain_core.tools import tool\n\nclient = httpx.Client(timeout=10)\n\n\n@tool\ndef send_http(url: str, payload: str) -> str:\n    \"\"\"Deliver a payload to a webhook.\"\"\"\n    r = client.post(url, content=payload)\n    return \"ok\" if r.is_success else \"failed\"\n")
