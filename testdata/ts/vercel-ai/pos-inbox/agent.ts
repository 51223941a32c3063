// The inbox assistant on the Vercel AI SDK: it reads the mailbox (mail that
// anyone can send), the user's private notes, and sends mail, all without
// asking. A message in the inbox can make it mail the notes away.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { ImapFlow } from "imapflow";
import nodemailer from "nodemailer";
import { z } from "zod";

const readInbox = tool({
  description: "Read the newest messages in the user's inbox.",
  inputSchema: z.object({ limit: z.number().int().min(1).max(20).default(5) }),
  execute: async ({ limit }) => {
    const client = new ImapFlow({
      host: process.env.IMAP_HOST ?? "imap.example.com",
      port: 993,
      secure: true,
      auth: { user: process.env.IMAP_USER ?? "", pass: process.env.IMAP_PASSWORD ?? "" },
    });
    await client.connect();
    const lock = await client.getMailboxLock("INBOX");
    const messages: string[] = [];
    try {
      for await (const msg of client.fetch(`${Math.max(1, 100 - limit)}:*`, { envelope: true, source: true })) {
        messages.push(`From: ${msg.envelope?.from?.[0]?.address}\nSubject: ${msg.envelope?.subject}\n\n${msg.source?.toString()}`);
      }
    } finally {
      lock.release();
    }
    await client.logout();
    return messages.join("\n---\n");
  },
});

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

export async function triageInbox(request: string): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    system: "You triage the user's inbox and keep their notes up to date.",
    prompt: request,
    tools: { readInbox, readNotes, sendEmail },
    stopWhen: stepCountIs(8),
  });
  return text;
}
