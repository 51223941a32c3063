import { Mastra } from "@mastra/core/mastra";

import { builder } from "./agents/builder";
import { reader } from "./agents/reader";

export const mastra = new Mastra({ agents: { builder, reader } });
