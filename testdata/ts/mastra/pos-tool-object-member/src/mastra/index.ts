import { Mastra } from "@mastra/core/mastra";

import { researcher } from "./agents/researcher";

export const mastra = new Mastra({ agents: { researcher } });
