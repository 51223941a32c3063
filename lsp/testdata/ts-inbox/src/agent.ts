import { generateText } from "ai";

import { readInbox, readNotes, sendEmail } from "./tools.js";

export async function triageInbox(request: string): Promise<string> {
  const { text } = await generateText({
    model: "openai/gpt-4o-mini",
    prompt: request,
    tools: { readInbox, readNotes, sendEmail },
  });
  return text;
}
