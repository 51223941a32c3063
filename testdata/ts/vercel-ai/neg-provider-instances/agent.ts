import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { ToolLoopAgent } from 'ai';

// A provider configured for a proxy: its tools are the package's own.
const anthropic = createAnthropic({ baseURL: process.env.ANTHROPIC_PROXY_URL });

export function createResearchAgent() {
  const openai = createOpenAI({ organization: 'research' });
  return new ToolLoopAgent({
    model: anthropic('claude-sonnet-4-5'),
    instructions: 'Research the question on the web and illustrate the answer.',
    tools: {
      web_search: anthropic.tools.webSearch_20250305({ maxUses: 5 }),
      web_fetch: anthropic.tools.webFetch_20250910(),
      image_generation: openai.tools.imageGeneration({ size: '1024x1024' }),
    },
  });
}
