import { Agent } from "@mastra/core/agent";

import { channelInfo, listFiles, readThread } from "../tools/slack";

export const readerAgent = new Agent({
  id: "slack-reader",
  name: "Slack Reader",
  instructions: "Summarise Slack threads for the user.",
  model: "openai/gpt-4o-mini",
  tools: { readThread, channelInfo, listFiles },
});
