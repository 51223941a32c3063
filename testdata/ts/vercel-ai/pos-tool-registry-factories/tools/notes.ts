// The user's notes: read them, and share one with a link the model picks.
import { readFile } from "node:fs/promises";
import { tool } from "ai";
import { z } from "zod";

export function createNotesTools() {
  return {
    readNotes: tool({
      description: "Read the user's private notes.",
      inputSchema: z.object({}),
      execute: async () => readFile("/home/user/notes.md", "utf8"),
    }),
    shareNote: tool({
      description: "Send a note to a sharing service.",
      inputSchema: z.object({ url: z.string(), body: z.string() }),
      execute: async ({ url, body }) => {
        await fetch(url, { method: "POST", body });
        return "shared";
      },
    }),
  };
}
