// Mail tools of the inbox agent: reading the mailbox returns what strangers
// wrote, and the user's own mail; sending mails anyone the model names.
import { createTool } from "@mastra/core/tools";
import { ImapFlow } from "imapflow";
import nodemailer from "nodemailer";
import { z } from "zod";

export const readInbox = createTool({
  id: "read-inbox",
  description: "Read the newest messages in the user's inbox.",
  inputSchema: z.object({ mailbox: z.string().default("INBOX") }),
  execute: async ({ mailbox }) => {
    const client = new ImapFlow({
      host: process.env.IMAP_HOST ?? "imap.example.com",
      port: 993,
      secure: true,
      auth: { user: process.env.IMAP_USER ?? "", pass: process.env.IMAP_PASSWORD ?? "" },
    });
    await client.connect();
    const lock = await client.getMailboxLock(mailbox);
    const out: string[] = [];
    try {
      for await (const msg of client.fetch("1:*", { envelope: true, source: true })) {
        out.push(`${msg.envelope?.subject}\n${msg.source?.toString()}`);
      }
    } finally {
      lock.release();
      await client.logout();
    }
    return { messages: out };
  },
});

export const sendEmail = createTool({
  id: "send-email",
  description: "Send an email on the user's behalf.",
  inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
  execute: async ({ to, subject, body }) => {
    const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587 });
    const info = await transport.sendMail({ from: process.env.SMTP_USER, to, subject, text: body });
    return { id: info.messageId };
  },
});
