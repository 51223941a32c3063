// A coding worker: takes a task another agent queued (its text copied from
// issues and chat messages) and runs Claude Code on the checkout with the
// Agent SDK, shell and edits pre-approved and a fetch server for docs.
import { query } from "@anthropic-ai/claude-agent-sdk";

const READ_TOOLS = ["Read", "Glob", "Grep"];

export async function runTask(task: string, repoPath: string): Promise<string> {
  const session = query({
    prompt: `Complete this task in the repository:\n${task}`,
    options: {
      allowedTools: [...READ_TOOLS, "Edit", "Write", "Bash", "mcp__fetch__fetch"],
      permissionMode: "acceptEdits",
      cwd: repoPath,
      mcpServers: { fetch: { command: "uvx", args: ["mcp-server-fetch"] } },
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
