// The inbox agent on Mastra: its tools come from other files. With the
// inbox (untrusted), the notes (private) and mail out, and no tool needing
// approval, a message can make it mail the notes to its sender.
import { Agent } from "@mastra/core/agent";

import { readInbox, sendEmail } from "../tools/mail";
import { readNotes } from "../tools/notes";

export const inboxAgent = new Agent({
  id: "inbox-agent",
  name: "Inbox Agent",
  instructions: "You triage the user's inbox and keep their notes up to date.",
  model: "openai/gpt-4o-mini",
  tools: { readInbox, readNotes, sendEmail },
});
