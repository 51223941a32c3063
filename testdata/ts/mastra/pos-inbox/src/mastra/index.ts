import { Mastra } from "@mastra/core/mastra";

import { inboxAgent } from "./agents/inbox";

export const mastra = new Mastra({ agents: { inboxAgent } });
