// A review worker: Claude Code may only read the checkout; every other
// tool is refused outright.
import { query } from "@anthropic-ai/claude-agent-sdk";

export async function review(repoPath: string): Promise<string> {
  const session = query({
    prompt: "Review the code in this repository and list its bugs.",
    options: {
      allowedTools: ["Read", "Glob", "Grep"],
      disallowedTools: ["Bash", "WebFetch", "WebSearch", "Edit", "Write"],
      cwd: repoPath,
    },
  });
  let last = "";
  for await (const message of session) {
    if (message.type === "result" && message.subtype === "success") {
      last = message.result;
    }
  }
  return last;
}
