import type { Message, ToolMessage } from '@agentloop/spec';
import { defineTool, toolResult } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';

const PNG = Buffer.alloc(1500).toString('base64');

const screenshot = defineTool({
  name: 'screenshot',
  description: 'A screenshot of the page.',
  parameters: z.object({}),
  execute: () => toolResult({ text: 'The page:', images: [{ mediaType: 'image/png', data: PNG }] }),
});

function block(toolName: string, args: unknown): string {
  return `<tool>\n${JSON.stringify({ server_name: 'local', tool_name: toolName, arguments: args })}\n</tool>`;
}

describe('a tool result with images', () => {
  it('puts the images on the tool result part in native mode, the text describing them', async () => {
    const { agent, provider } = scriptedAgent(
      [{ toolCalls: [{ name: 'screenshot', arguments: {} }] }, complete('Seen.')],
      { tools: [screenshot], toolProtocol: 'native' },
    );
    await agent.run('look');
    const sent = provider.requests[1]?.messages ?? [];
    const results = sent.find((message): message is ToolMessage => message.role === 'tool');
    expect(results?.content).toStrictEqual([
      {
        type: 'tool-result',
        toolCallId: expect.any(String),
        toolName: 'screenshot',
        content: 'The page:\n[image: image/png, 1.5 KB]',
        images: [{ mediaType: 'image/png', data: PNG }],
        isError: false,
      },
    ]);
  });

  it('sends only the description in XML mode, whose results are a text user message', async () => {
    const { agent, provider } = scriptedAgent(
      [{ text: block('screenshot', {}) }, { text: block('task_completion', { result: 'Seen.' }) }],
      { tools: [screenshot], toolProtocol: 'xml' },
    );
    await agent.run('look');
    const sent: readonly Message[] = provider.requests[1]?.messages ?? [];
    const last = sent.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toHaveLength(1);
    const text = (last?.content[0] as { text: string } | undefined)?.text;
    expect(text).toContain('The page:\n[image: image/png, 1.5 KB]');
    expect(text).not.toContain(PNG.slice(0, 40));
  });
});
