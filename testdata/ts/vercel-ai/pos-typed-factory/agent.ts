// A triage bot on the AI SDK: it reads a web page the user names and posts
// a summary to the team's Slack or mails it. The clients come from helpers
// of the module: one annotated with its return type, one not.
import { openai } from "@ai-sdk/openai";
import { WebClient } from "@slack/web-api";
import { tool, ToolLoopAgent } from "ai";
import nodemailer from "nodemailer";
import { z } from "zod";

async function slackClient(): Promise<WebClient> {
  return new WebClient(process.env.SLACK_BOT_TOKEN);
}

// No annotation: every return is a transport nodemailer made.
function mailer() {
  return nodemailer.createTransport({ host: "smtp.example.com", port: 587 });
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

const mailSummary = tool({
  description: "Mail a summary to the team list.",
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => {
    await mailer().sendMail({ from: "bot@example.com", to: "team@example.com", subject: "Summary", text });
    return "mailed";
  },
});

export const triage = new ToolLoopAgent({
  model: openai("gpt-5"),
  instructions: "Summarise pages for the team.",
  tools: { read_page: readPage, post_summary: postSummary, mail_summary: mailSummary },
});
