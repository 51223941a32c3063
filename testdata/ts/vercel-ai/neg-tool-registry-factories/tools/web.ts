// Web tools, each wrapped by the executor the caller passes in (logging
// and cancellation), the middleware shape of many bots' tool registries.
import { tool } from "ai";
import { z } from "zod";

export type ToolExecutor = (name: string, fn: (args: any) => Promise<string>) => (args: any) => Promise<string>;

export function createWebTools(executor: ToolExecutor) {
  return {
    fetchPage: tool({
      description: "Fetch a web page and return its text.",
      inputSchema: z.object({ url: z.string() }),
      execute: executor("fetchPage", async ({ url }: { url: string }) => {
        const res = await fetch(url);
        return await res.text();
      }),
    }),
  };
}
