// Arithmetic and the time: tools that compute in memory.
import { tool } from "ai";
import { z } from "zod";

export function createNotesTools() {
  return {
    add: tool({
      description: "Add two numbers.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => String(a + b),
    }),
    now: tool({
      description: "The current time as an ISO string.",
      inputSchema: z.object({}),
      execute: async () => new Date().toISOString(),
    }),
  };
}
