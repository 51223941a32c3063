// A notes agent on Mastra with two legs only: private notes and mail out,
// nothing a stranger wrote, so no injected instruction reaches it.
import { Agent } from "@mastra/core/agent";

import { sendEmail } from "../tools/mail";
import { readNotes } from "../tools/notes";

export const inboxAgent = new Agent({
  id: "inbox-agent",
  name: "Inbox Agent",
  instructions: "You keep the user's notes and mail them to the user.",
  model: "openai/gpt-4o-mini",
  tools: { readNotes, sendEmail },
});
