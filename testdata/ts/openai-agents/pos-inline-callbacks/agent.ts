// A build helper on OpenAI Agents JS whose tools do their work in
// callbacks: fetch_pages reads every URL it is given through
// Promise.all(urls.map(async (url) => ...)), and run_steps runs each
// command with steps.forEach((step) => execSync(step)). Pages from anywhere
// reach the model, which then picks the commands, and no one is asked.
import { execSync } from "node:child_process";

import { Agent, tool } from "@openai/agents";
import { z } from "zod";

const fetchPages = tool({
  name: "fetch_pages",
  description: "Fetch several web pages.",
  parameters: z.object({ urls: z.array(z.string()) }),
  execute: async ({ urls }) => {
    const pages = await Promise.all(urls.map(async (url) => (await fetch(url)).text()));
    return pages.join("\n\n");
  },
});

const runSteps = tool({
  name: "run_steps",
  description: "Run build steps in order.",
  parameters: z.object({ steps: z.array(z.string()) }),
  execute: async ({ steps }) => {
    const out: string[] = [];
    steps.forEach((step) => {
      out.push(execSync(step, { encoding: "utf8" }));
    });
    return out.join("\n");
  },
});

export const builder = new Agent({
  name: "builder",
  instructions: "Read the docs the user links to, then run the build steps they describe.",
  tools: [fetchPages, runSteps],
});
