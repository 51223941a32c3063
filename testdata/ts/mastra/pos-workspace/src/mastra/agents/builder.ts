// A builder that reads web pages and runs commands in the workspace, with
// no approval before a command: a page can run anything.
import { Agent } from "@mastra/core/agent";

import { readPage } from "../tools/web";
import { workspace } from "../workspace";

export const builder = new Agent({
  id: "builder",
  name: "Builder",
  instructions: "Build what the user asks, reading docs on the web.",
  model: "openai/gpt-4o-mini",
  workspace,
  tools: { read_page: readPage },
});
