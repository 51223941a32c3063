// The support agent of the monorepo: its tools come from the workspace
// package @acme/tools (its exports map: "." and "./slack", built to dist/
// from src/).
import { Agent, run } from "@openai/agents";

import { lookupCustomers, searchForum } from "@acme/tools";
import * as slack from "@acme/tools/slack";

export const supportAgent = new Agent({
  name: "support_agent",
  instructions: "You answer support questions using the forum and the CRM, and keep the team posted on Slack.",
  model: "gpt-4.1-mini",
  tools: [searchForum, lookupCustomers, slack.postToSlack],
});

export async function answer(question: string): Promise<string | undefined> {
  const result = await run(supportAgent, question);
  return result.finalOutput;
}
