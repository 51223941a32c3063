// The chat route of a Next.js app: its tools come from the project's own
// modules through the tsconfig path alias ~/* (tsconfig.json maps it to
// ./src/*).
import { openai } from "@ai-sdk/openai";
import { stepCountIs, streamText } from "ai";

import { readInbox } from "~/lib/tools/read-inbox";
import { readNotes } from "~/lib/tools/read-notes";
import { sendEmail } from "~/lib/tools/send-email";

export async function POST(request: Request) {
  const { prompt } = await request.json();
  const result = streamText({
    model: openai("gpt-4o-mini"),
    system: "You triage the user's inbox and keep their notes up to date.",
    prompt,
    tools: { readInbox, readNotes, sendEmail: sendEmail({ from: "me@example.com" }) },
    stopWhen: stepCountIs(8),
  });
  return result.toTextStreamResponse();
}
