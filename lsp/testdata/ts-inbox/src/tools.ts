// Tools of the TypeScript inbox example (Vercel AI SDK): the inbox is mail
// anyone can send, the notes are private, and sendEmail posts outward.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

import { tool } from "ai";
import { z } from "zod";

export const readInbox = tool({
  description: "Read the newest messages in the user's inbox.",
  inputSchema: z.object({ limit: z.number() }),
  execute: async ({ limit }) => {
    const res = await fetch(`https://mail.example.com/api/inbox?limit=${limit}`);
    return res.text();
  },
});

export const readNotes = tool({
  description: "Return the user's private notes.",
  inputSchema: z.object({}),
  execute: async () => readFile(join(homedir(), "notes.md"), "utf8"),
});

export const sendEmail = tool({
  description: "Send an email on the user's behalf.",
  inputSchema: z.object({ to: z.string(), body: z.string() }),
  execute: async ({ to, body }) => {
    const res = await fetch("https://mail.example.com/api/send", { method: "POST", body: JSON.stringify({ to, body }) });
    return res.ok ? "sent" : "failed";
  },
});
