// The inbox agent on Mastra, approved: send-email (tools/mail.ts) has
// requireApproval, so the agent suspends for the user before any mail goes.
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
