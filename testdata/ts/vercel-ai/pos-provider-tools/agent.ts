// A research agent on the AI SDK with the provider's own tools: OpenAI's
// hosted web search and image generation, and its local shell, which the
// application runs through the execute callback it gives. Pages from the
// web reach the model, and the shell then runs whatever command it picks,
// with no approval between them.
import { execFileSync } from "node:child_process";

import { openai } from "@ai-sdk/openai";
import { ToolLoopAgent } from "ai";

export const researchAgent = new ToolLoopAgent({
  model: openai("gpt-5"),
  instructions: "Research the question on the web and check facts in the workspace.",
  tools: {
    web_search: openai.tools.webSearch({}),
    image_generation: openai.tools.imageGeneration({}),
    shell: openai.tools.localShell({
      async execute({ action }) {
        const [cmd, ...args] = action.command;
        const output = execFileSync(cmd, args, { cwd: action.workingDirectory, encoding: "utf8" });
        return { output };
      },
    }),
  },
});
