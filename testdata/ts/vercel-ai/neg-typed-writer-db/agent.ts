// A notes assistant whose tools are made per request by factories that
// take the request's stream writer in a destructured, typed parameter
// (the shape of the AI SDK's chatbot template): they read and save the
// user's notes in the app's database and stream progress to the user's
// own browser. Nothing here reads text a stranger wrote.
import { openai } from "@ai-sdk/openai";
import { stepCountIs, streamText, tool, type UIMessageStreamWriter } from "ai";
import { z } from "zod";

import { notesOf, saveNote } from "./db";

type ToolProps = {
  userId: string;
  dataStream: UIMessageStreamWriter;
};

const listNotes = ({ userId, dataStream }: ToolProps) =>
  tool({
    description: "List the user's notes.",
    inputSchema: z.object({}),
    execute: async () => {
      dataStream.write({ type: "data-status", data: "reading notes", transient: true });
      return notesOf(userId);
    },
  });

const addNote = ({ userId, dataStream }: ToolProps) =>
  tool({
    description: "Save a note for the user.",
    inputSchema: z.object({ body: z.string() }),
    execute: async ({ body }) => {
      const [saved] = await saveNote(userId, body);
      dataStream.write({ type: "data-status", data: "saved", transient: true });
      return { id: saved.id };
    },
  });

export function notesChat(userId: string, prompt: string, dataStream: UIMessageStreamWriter) {
  return streamText({
    model: openai("gpt-4o-mini"),
    system: "You keep the user's notes.",
    prompt,
    tools: { listNotes: listNotes({ userId, dataStream }), addNote: addNote({ userId, dataStream }) },
    stopWhen: stepCountIs(5),
  });
}
