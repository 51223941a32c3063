// One tool set, two calls: the triage call lets the model use only the
// read tools (activeTools), so the mail a stranger sent cannot make it
// send anything; the reply call has no stranger's text in it.
import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import nodemailer from "nodemailer";
import { z } from "zod";

const tools = {
  readInbox: tool({
    description: "Return the latest messages of the user's inbox.",
    inputSchema: z.object({}),
    execute: async () => (await fetch("https://mail.example.com/api/inbox", { headers: { authorization: `Bearer ${process.env.MAIL_TOKEN}` } })).text(),
  }),
  sendEmail: tool({
    description: "Send an email on the user's behalf.",
    inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    execute: async ({ to, subject, body }) => {
      const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587 });
      const info = await transport.sendMail({ from: process.env.SMTP_USER, to, subject, text: body });
      return `sent ${info.messageId}`;
    },
  }),
};

export async function triage(): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    prompt: "Summarise my inbox.",
    tools,
    activeTools: ["readInbox"],
    stopWhen: stepCountIs(4),
  });
  return text;
}
