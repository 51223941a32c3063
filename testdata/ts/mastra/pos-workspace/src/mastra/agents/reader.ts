// A reader with the same workspace, allowed only to read: activeTools names
// the tools the model may call.
import { Agent } from "@mastra/core/agent";

import { readPage } from "../tools/web";
import { workspace } from "../workspace";

export const reader = new Agent({
  id: "reader",
  name: "Reader",
  instructions: "Answer from the web and the project's files.",
  model: "openai/gpt-4o-mini",
  workspace,
  tools: { read_page: readPage },
  defaultOptions: { activeTools: ["read_page", "read_file", "list_files"] },
});
