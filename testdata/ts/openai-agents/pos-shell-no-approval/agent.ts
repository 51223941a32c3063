// An ops assistant on OpenAI Agents JS that searches the web and runs
// shell commands locally with no approval: a page's injected instruction
// can run any command. The patch tool asks first.
import { exec } from "node:child_process";
import { promisify } from "node:util";

import { Agent, applyPatchTool, run, shellTool, webSearchTool } from "@openai/agents";
import type { Editor, Shell } from "@openai/agents";

const sh = promisify(exec);

const localShell: Shell = {
  run: async (action) => {
    const output = [];
    for (const command of action.commands) {
      const { stdout, stderr } = await sh(command);
      output.push({ stdout, stderr, outcome: { type: "exit" as const, exitCode: 0 } });
    }
    return { output };
  },
};

declare const editor: Editor;

export async function opsAssistant(task: string): Promise<string> {
  const agent = new Agent({
    name: "Ops assistant",
    instructions: "Investigate with web search, fix with the shell.",
    tools: [webSearchTool(), shellTool({ shell: localShell }), applyPatchTool({ editor, needsApproval: true })],
  });
  const result = await run(agent, task);
  return String(result.finalOutput);
}
