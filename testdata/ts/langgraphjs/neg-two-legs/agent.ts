// A notes assistant on LangGraph.js with two legs only: private notes and a
// mail sender, nothing untrusted read, so no injected text can steer it.
import { readFile } from "node:fs/promises";

import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import nodemailer from "nodemailer";
import { z } from "zod";

const readNotes = tool(async () => readFile(process.env.NOTES_PATH ?? "notes.md", "utf8"), {
  name: "read_notes",
  description: "Return the user's private research notes.",
  schema: z.object({}),
});

const sendEmail = tool(
  async ({ to, subject, body }) => {
    const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587 });
    await transport.sendMail({ from: "assistant@example.com", to, subject, text: body });
    return `sent to ${to}`;
  },
  {
    name: "send_email",
    description: "Send an email.",
    schema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
  },
);

export const researchAgent = createReactAgent({
  llm: new ChatOpenAI({ model: "gpt-4o-mini" }),
  tools: [readNotes, sendEmail],
  prompt: "You keep the user's notes and mail summaries to them.",
});
