import { type AgentEvent, DefaultAgent } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import {
  anthropicAnswer,
  calculatorTool,
  sseResponse,
  testProviderOptions,
  useFixtureServer,
} from '../test-support/index.js';
import { AnthropicProvider } from './anthropic-provider.js';

// A DefaultAgent runs several tool steps against a local server that answers each request in turn.
const server = useFixtureServer();

describe('DefaultAgent with AnthropicProvider', () => {
  it('runs tool steps to task_completion, sending thinking signatures and tool results back', async () => {
    const step2 = anthropicAnswer(
      {
        text: 'Now multiply.',
        toolCalls: [{ id: 'toolu_2', name: 'calculator', arguments: { a: 19, b: 3, op: 'multiply' } }],
      },
      'msg_2',
    );
    server().reply(
      sseResponse(
        anthropicAnswer(
          {
            thinking: { text: 'Add first, then multiply.', signature: 'EqQBCkgIARABGAIiQHsig' },
            toolCalls: [{ id: 'toolu_1', name: 'calculator', arguments: { a: 12, b: 7, op: 'add' } }],
          },
          'msg_1',
        ),
      ),
      // The second step breaks mid-stream once: the agent must discard its partial text and retry.
      sseResponse(step2, { fault: { after: 3, kind: 'reset' } }),
      sseResponse(step2),
      sseResponse(
        anthropicAnswer(
          { toolCalls: [{ id: 'toolu_3', name: 'task_completion', arguments: { result: '(12 + 7) * 3 = 57' } }] },
          'msg_3',
        ),
      ),
    );
    const provider = new AnthropicProvider({
      model: 'claude-sonnet-4-6',
      ...testProviderOptions(server().url).options,
    });
    const agent = new DefaultAgent(provider, {
      systemPrompt: 'You compute with the calculator.',
      maxIterations: 6,
      toolProtocol: 'native',
    });
    agent.registerTool(calculatorTool);
    const events: AgentEvent[] = [];
    for (const name of ['retry', 'message-content', 'tool-result'] as const)
      agent.on(name, (event) => events.push(event));

    const result = await agent.run('What is (12 + 7) * 3?');

    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: '(12 + 7) * 3 = 57' });
    expect(result.iterations).toBe(3);
    expect(result.usage.inputTokens).toBe(300);
    expect(
      events
        .filter((event) => event.type === 'tool-result')
        .map((event) => (event.type === 'tool-result' ? event.content : ''))
        .slice(0, 2),
    ).toEqual(['19', '57']);
    expect(events.find((event) => event.type === 'retry')).toMatchObject({
      discardOutput: true,
      error: { code: 'stream_broken' },
    });
    expect(server().requests).toHaveLength(4);
    const last = server().requests[3]?.body as { tool_choice: unknown; messages: unknown[] };
    expect(last.tool_choice).toEqual({ type: 'any' });
    expect(last.messages).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "text": "What is (12 + 7) * 3?",
              "type": "text",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "signature": "EqQBCkgIARABGAIiQHsig",
              "thinking": "Add first, then multiply.",
              "type": "thinking",
            },
            {
              "id": "toolu_1",
              "input": {
                "a": 12,
                "b": 7,
                "op": "add",
              },
              "name": "calculator",
              "type": "tool_use",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "content": "19",
              "tool_use_id": "toolu_1",
              "type": "tool_result",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "text": "Now multiply.",
              "type": "text",
            },
            {
              "id": "toolu_2",
              "input": {
                "a": 19,
                "b": 3,
                "op": "multiply",
              },
              "name": "calculator",
              "type": "tool_use",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "cache_control": {
                "type": "ephemeral",
              },
              "content": "57",
              "tool_use_id": "toolu_2",
              "type": "tool_result",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });
});
