// The research assistant on LangGraph.js, approved: send_email calls
// interrupt() before it sends, so the graph pauses for the user (resumed with
// a Command) and mails nothing unless they approve.
import { readFile } from "node:fs/promises";

import { tool } from "@langchain/core/tools";
import { interrupt, MemorySaver } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import nodemailer from "nodemailer";
import { z } from "zod";

const searchWeb = tool(
  async ({ query }) => {
    const res = await fetch(`https://en.wikipedia.org/w/index.php?search=${encodeURIComponent(query)}&fulltext=1`);
    return res.text();
  },
  { name: "search_web", description: "Search the web and return the result page.", schema: z.object({ query: z.string() }) },
);

const readNotes = tool(async () => readFile(process.env.NOTES_PATH ?? "notes.md", "utf8"), {
  name: "read_notes",
  description: "Return the user's private research notes.",
  schema: z.object({}),
});

const sendEmail = tool(
  async ({ to, subject, body }) => {
    const approved = interrupt<{ action: string; to: string; subject: string }, boolean>({ action: "send_email", to, subject });
    if (!approved) {
      return "the user declined";
    }
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
  tools: [searchWeb, readNotes, sendEmail],
  prompt: "You research topics on the web, keep notes and mail summaries.",
  checkpointer: new MemorySaver(),
});
