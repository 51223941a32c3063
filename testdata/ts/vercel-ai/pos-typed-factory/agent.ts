// A triage bot on the AI SDK: it reads a web page the user names and posts
// a summary to the team's Slack. The Slack client comes from a helper of
// the module whose return type says what it is.
import { openai } from "@ai-sdk/openai";
import { WebClient } from "@slack/web-api";
import { tool, ToolLoopAgent } from "ai";
import { z } from "zod";

async function slackClient(): Promise<WebClient> {
  return new WebClient(process.env.SLACK_BOT_TOKEN);
}

const readPage = tool({
  description: "Read a web page.",
  inputSchema: z.object({ url: z.string() }),
  execute: async ({ url }) => (await fetch(url)).text(),
});

const postSummary = tool({
  description: "Post a summary to the team channel.",
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => {
    const slack = await slackClient();
    await slack.chat.postMessage({ channel: "#triage", text });
    return "posted";
  },
});

export const triage = new ToolLoopAgent({
  model: openai("gpt-5"),
  instructions: "Summarise pages for the team.",
  tools: { read_page: readPage, post_summary: postSummary },
});
