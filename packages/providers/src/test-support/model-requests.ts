import type { Message, ModelRequest, ToolDefinition } from '@agentloop/spec';

/** A tool definition for tests. */
export const WEATHER_TOOL: ToolDefinition = {
  name: 'get_weather',
  description: 'Get the current weather in a given location',
  inputSchema: {
    type: 'object',
    properties: { location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' } },
    required: ['location'],
  },
};

/** A ModelRequest with test defaults: one user message, no tools, a fresh signal. */
export function modelRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Hello!' }] }];
  return {
    systemPrompt: 'You are a helpful assistant.',
    messages,
    tools: [],
    toolChoice: 'auto',
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A sleep that records the waits and returns at once. */
export function instantSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}
