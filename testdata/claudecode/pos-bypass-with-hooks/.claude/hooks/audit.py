"""Log every shell command Claude Code runs, and let it through."""
import json
import sys


def main() -> None:
    event = json.load(sys.stdin)
    with open("/tmp/claude-commands.log", "a") as log:
        log.write(event.get("tool_input", {}).get("command", "") + "\n")
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))


if __name__ == "__main__":
    main()
