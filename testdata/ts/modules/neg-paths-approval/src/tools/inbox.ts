// The inbox reader: mail from anyone, so untrusted, and the user's own.
import { tool } from "ai";
import { ImapFlow } from "imapflow";
import { z } from "zod";

export const readInbox = tool({
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
        messages.push(`Subject: ${msg.envelope?.subject}\n\n${msg.source?.toString()}`);
      }
    } finally {
      lock.release();
    }
    await client.logout();
    return messages.join("\n---\n");
  },
});
