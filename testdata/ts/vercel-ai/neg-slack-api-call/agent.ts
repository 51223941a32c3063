// A Slack search assistant: the Web API's generic apiCall runs the method
// its first argument names (here Slack's real-time search), and the
// messages of the Chat SDK are formatted for the model.
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

// The message the bot was mentioned in, kept by the event handler.
export let lastMention: Message | undefined;

const tools = {
  describeMention: tool({
    description: "Describe the message the bot was mentioned in.",
    inputSchema: z.object({}),
    execute: async () => JSON.stringify(lastMention ? formatMessage(lastMention) : null),
  }),
  searchSlack: tool({
    description: "Search the workspace's messages.",
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => {
      const res = await web.apiCall("assistant.search.context", { query, limit: 20 });
      return JSON.stringify(res);
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
