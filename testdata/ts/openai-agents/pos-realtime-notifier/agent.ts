// A voice concierge on the OpenAI Agents SDK's realtime entry point: it
// reads a web page the caller names and can post to the team's Slack
// channel, with no approval on the post.
import { RealtimeAgent, tool } from "@openai/agents/realtime";
import { z } from "zod";

import { Notifier } from "./notifier.js";

const readPage = tool({
  name: "read_page",
  description: "Read a web page aloud.",
  parameters: z.object({ url: z.string() }),
  execute: async ({ url }) => {
    const res = await fetch(url);
    return res.text();
  },
});

const postToTeam = tool({
  name: "post_to_team",
  description: "Post a note to the team's Slack channel.",
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }) => {
    const notifier = new Notifier();
    return notifier.post("#concierge", text);
  },
});

export const concierge = new RealtimeAgent({
  name: "concierge",
  voice: "sage",
  instructions: "Help the caller. Read pages they name; post notes for the team when asked.",
  tools: [readPage, postToTeam],
});
