"""Ask before fetching a host that is not on the project's list."""
import json
import sys
from urllib.parse import urlparse

ALLOWED_HOSTS = {"docs.python.org", "pypi.org"}

call = json.load(sys.stdin)
url = call.get("tool_input", {}).get("url", "")
if urlparse(url).hostname not in ALLOWED_HOSTS:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}))
