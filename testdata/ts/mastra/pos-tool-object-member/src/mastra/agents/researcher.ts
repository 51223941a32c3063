// A researcher that reads web pages and the user's notes, and cannot
// send mail: it picks two tools out of the app's tool object by name.
import { Agent } from "@mastra/core/agent";

import { appTools } from "../tools";

export const researcher = new Agent({
  id: "researcher",
  name: "Researcher",
  instructions: "Answer from the web and the user's notes.",
  model: "openai/gpt-4o-mini",
  tools: { read_page: appTools.read_page, read_notes: appTools.read_notes },
});
