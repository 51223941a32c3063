// Posting to the team's Slack.
import { tool } from "@openai/agents";
import { WebClient } from "@slack/web-api";
import { z } from "zod";

const slack = new WebClient(process.env.SLACK_BOT_TOKEN);

export const postToSlack = tool({
  name: "post_to_slack",
  description: "Post a message to a Slack channel.",
  parameters: z.object({ channel: z.string(), text: z.string() }),
  execute: async ({ channel, text }) => {
    const res = await slack.chat.postMessage({ channel, text });
    return res.ok ? `posted ${res.ts}` : `failed: ${res.error}`;
  },
});
