#!/usr/bin/env -S uv run --script
"""Ask the user before any call that leaves the machine or changes it."""
import json
import sys

RISKY = {"Bash", "WebFetch", "Edit", "Write", "MultiEdit", "NotebookEdit"}

data = json.load(sys.stdin)
if data.get("tool_name") in RISKY or data.get("tool_name", "").startswith("mcp__"):
    decision = "ask"
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": "a person confirms every risky call",
    }}))
sys.exit(0)
