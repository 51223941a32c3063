import { createNotesTools } from "./notes.js";
import { createWebTools, type ToolExecutor } from "./web.js";

export function createAllTools(options: { executor: ToolExecutor }) {
  const { executor } = options;
  return {
    ...createWebTools(executor),
    ...createNotesTools(),
  };
}
