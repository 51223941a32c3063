// The inbox assistant: its tools come through the tsconfig path aliases
// ("@/*" and the exact "@notes", declared in the extended base config) and
// an index that re-exports with export *.
import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";

import { readNotes } from "@notes";
import { sendEmail } from "@/tools/index.js";
import { readInbox } from "@/tools/inbox.js";

export async function triageInbox(request: string): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    system: "You triage the user's inbox and keep their notes up to date.",
    prompt: request,
    tools: { readInbox, readNotes, sendEmail },
    stopWhen: stepCountIs(8),
  });
  return text;
}
