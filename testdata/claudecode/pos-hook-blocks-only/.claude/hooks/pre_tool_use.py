#!/usr/bin/env -S uv run --script
"""Block reads of .env files and rm -rf; log the rest."""
import json
import re
import sys

data = json.load(sys.stdin)
tool_input = data.get("tool_input", {})
if ".env" in tool_input.get("file_path", ""):
    print("BLOCKED: .env files hold secrets", file=sys.stderr)
    sys.exit(2)  # exit code 2 blocks the call
if re.search(r"\brm\s+-rf\b", tool_input.get("command", "")):
    print("BLOCKED: rm -rf", file=sys.stderr)
    sys.exit(2)
with open("logs/pre_tool_use.json", "a") as log:
    log.write(json.dumps(data) + "\n")
sys.exit(0)
