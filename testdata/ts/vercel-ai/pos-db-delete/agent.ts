// A notes assistant that also reads web pages and can delete notes, with
// no approval: a page's injected instruction can make it delete the
// user's notes, and Drizzle's delete cannot be undone.
import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";

import { deleteNote, notesOf } from "./db";

const readPage = tool({
  description: "Fetch a web page and return its text.",
  inputSchema: z.object({ url: z.string().url() }),
  execute: async ({ url }) => (await fetch(url)).text(),
});

const listNotes = tool({
  description: "List the user's notes.",
  inputSchema: z.object({ userId: z.string() }),
  execute: async ({ userId }) => notesOf(userId),
});

const removeNote = tool({
  description: "Delete one of the user's notes.",
  inputSchema: z.object({ id: z.string() }),
  execute: async ({ id }) => {
    await deleteNote(id);
    return "deleted";
  },
});

export async function notesAssistant(prompt: string): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    prompt,
    tools: { readPage, listNotes, removeNote },
    stopWhen: stepCountIs(8),
  });
  return text;
}
