go test fuzz v1
[]byte("import sqlite3\n\nfrom langchain_core.tools import tool\n\n\n@tool\ndef read_notes(topic: str) -> str:\n    \"\"\"Look up the user's notes on a topic.\"\"\"\n    conn = sqlite3.connect(\"notes.db\")\n    cur = conn.cursor()\n    cur.execute(\"SELECT body FROM notes WHERE topic = ?\", (topic,))\n    rows = cur.fetchall()\n    return \"\\n\".join(r[0] for r in rows)\n")
