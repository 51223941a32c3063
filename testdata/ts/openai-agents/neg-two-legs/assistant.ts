// A support agent on OpenAI Agents JS with two legs only: it reads forum posts
// (untrusted) and posts to Slack, but reads no private data, so an injected
// post has nothing private to leak.
import { Agent, run, tool } from "@openai/agents";
import { WebClient } from "@slack/web-api";
import { z } from "zod";

const slack = new WebClient(process.env.SLACK_BOT_TOKEN);

const searchForum = tool({
  name: "search_forum",
  description: "Search the public community forum and return the matching posts.",
  parameters: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    const res = await fetch(`https://forum.example.com/search.json?q=${encodeURIComponent(query)}`);
    return await res.text();
  },
});

const postToSlack = tool({
  name: "post_to_slack",
  description: "Post a message to a Slack channel.",
  parameters: z.object({ channel: z.string(), text: z.string() }),
  execute: async ({ channel, text }) => {
    const res = await slack.chat.postMessage({ channel, text });
    return res.ok ? `posted ${res.ts}` : `failed: ${res.error}`;
  },
});

export const supportAgent = new Agent({
  name: "support_agent",
  instructions: "You answer support questions using the forum, and keep the team posted on Slack.",
  model: "gpt-4.1-mini",
  tools: [searchForum, postToSlack],
});

export async function answer(question: string): Promise<string | undefined> {
  const result = await run(supportAgent, question);
  return result.finalOutput;
}
