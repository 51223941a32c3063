// A notes assistant on the Vercel AI SDK with two legs only: it reads the
// user's private notes and sends mail, but reads nothing a stranger wrote,
// so no injected instruction reaches it.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import nodemailer from "nodemailer";
import { z } from "zod";

const readNotes = tool({
  description: "Return the user's private notes.",
  inputSchema: z.object({}),
  execute: async () => readFile(join(homedir(), "notes.md"), "utf8"),
});

const sendEmail = tool({
  description: "Send an email on the user's behalf.",
  inputSchema: z.object({ to: z.string().email(), subject: z.string(), body: z.string() }),
  execute: async ({ to, subject, body }) => {
    const transport = nodemailer.createTransport({
      host: process.env.SMTP_HOST,
      port: 587,
      auth: { user: process.env.SMTP_USER, pass: process.env.SMTP_PASSWORD },
    });
    const info = await transport.sendMail({ from: process.env.SMTP_USER, to, subject, text: body });
    return `sent ${info.messageId}`;
  },
});

export async function notesAssistant(request: string): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    system: "You keep the user's notes and mail them to the user's contacts.",
    prompt: request,
    tools: { readNotes, sendEmail },
    stopWhen: stepCountIs(8),
  });
  return text;
}
