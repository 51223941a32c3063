// Ask before every shell command.
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const reason = "confirm shell: " + JSON.parse(input).tool_input.command;
  console.log(JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: reason },
  }));
});
