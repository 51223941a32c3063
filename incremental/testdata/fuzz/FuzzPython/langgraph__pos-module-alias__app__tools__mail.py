go test fuzz v1
[]byte("import poplib\n\nfrom langchain_core.tools import tool\n\n\ndef _fetch(index: int) -> bytes:\n    box = poplib.POP3_SSL(\"pop.example.com\")\n    _, lines, _ = box.retr(index)\n    return b\"\\n\".join(lines)\n\n\n@tool\ndef read_email(index: int = 1) -> str:\n    \"\"\"Read one message from the mailbox.\"\"\"\n    return _fetch(index).decode(errors=\"replace\")\n")
