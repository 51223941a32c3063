// The twin of neg-slack-api-call that can also post: apiCall("chat.postMessage")
// sends to a channel the model names, after it read the workspace's
// messages (written by its members: untrusted, and private).
import { openai } from "@ai-sdk/openai";
import { WebClient } from "@slack/web-api";
import { generateText, stepCountIs, tool } from "ai";
import type { Message } from "chat";
import { z } from "zod";

const web = new WebClient(process.env.SLACK_BOT_TOKEN);

export function formatMessage(message: Message) {
  return {
    id: message.id,
    text: message.text,
    author: message.author.userName,
    dateSent: message.metadata.dateSent.toISOString(),
  };
}

const tools = {
  searchSlack: tool({
    description: "Search the workspace's messages.",
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => {
      const res = await web.apiCall("assistant.search.context", { query, limit: 20 });
      return JSON.stringify(res);
    },
  }),
  postMessage: tool({
    description: "Post a message to a channel.",
    inputSchema: z.object({ channel: z.string(), text: z.string() }),
    execute: async ({ channel, text }) => {
      await web.apiCall("chat.postMessage", { channel, text });
      return "posted";
    },
  }),
};

export async function answer(question: string, context: Message[]) {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    prompt: `${question}\n\n${JSON.stringify(context.map(formatMessage))}`,
    tools,
    stopWhen: stepCountIs(5),
  });
  return text;
}
