import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedProvider } from '../testing/index.js';
import { DefaultAgent } from './default-agent.js';

describe('DefaultAgent smoke', () => {
  it('runs a tool then completes', async () => {
    const provider = new ScriptedProvider([
      { text: 'Let me add.', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: '3' } }] },
    ]);
    const agent = new DefaultAgent(provider);
    agent.registerTool(defineTool({ name: 'add', description: 'adds', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b }));
    const result = await agent.run('1+2?');
    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: '3' });
    expect(provider.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1_1', toolName: 'add', content: '3', isError: false }] });
  });
});
