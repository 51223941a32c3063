// A research assistant on LangGraph.js: createReactAgent with a web fetch
// (pages anyone can write), the user's private notes and a mail sender. No
// tool asks first: a page can make it mail the notes to a stranger.
import { readFile } from "node:fs/promises";

import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import nodemailer from "nodemailer";
import { z } from "zod";

const fetchPage = tool(
  async ({ url }) => {
    const res = await fetch(url);
    return res.text();
  },
  { name: "fetch_page", description: "Fetch a web page and return its text.", schema: z.object({ url: z.string() }) },
);

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
  tools: [fetchPage, readNotes, sendEmail],
  prompt: "You research topics on the web, keep notes and mail summaries.",
});
