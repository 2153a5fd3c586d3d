import { DefaultAgent } from '@agentloop/core';
import type { LLMProvider } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import {
  calculatorTool,
  chatAnswer,
  responsesAnswer,
  sseResponse,
  testProviderOptions,
  useFixtureServer,
} from '../test-support/index.js';
import { OpenAIProvider } from './openai-provider.js';
import { OpenAIResponsesProvider } from './openai-responses-provider.js';

// A DefaultAgent runs several tool steps against a local server that answers each request in turn.
const server = useFixtureServer();

function calculatorAgent(provider: LLMProvider) {
  const agent = new DefaultAgent(provider, {
    systemPrompt: 'You compute with the calculator.',
    maxIterations: 6,
    toolProtocol: 'native',
  });
  agent.registerTool(calculatorTool);
  return agent;
}

const add = { id: 'call_1', name: 'calculator', arguments: { a: 12, b: 7, op: 'add' } };
const multiply = { id: 'call_2', name: 'calculator', arguments: { a: 19, b: 3, op: 'multiply' } };
const done = { id: 'call_3', name: 'task_completion', arguments: { result: '(12 + 7) * 3 = 57' } };

describe('DefaultAgent with the OpenAI providers', () => {
  it('runs Chat Completions tool steps to task_completion', async () => {
    server().reply(
      sseResponse(chatAnswer({ toolCalls: [add] })),
      sseResponse(chatAnswer({ text: 'Next step.', toolCalls: [multiply] })),
      sseResponse(chatAnswer({ toolCalls: [done] })),
    );
    const provider = new OpenAIProvider({
      model: 'gpt-4o',
      compatible: false,
      ...testProviderOptions(`${server().url}/v1`).options,
    });
    const result = await calculatorAgent(provider).run('What is (12 + 7) * 3?');
    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: '(12 + 7) * 3 = 57' });
    expect(result.iterations).toBe(3);
    expect(result.usage).toMatchObject({ inputTokens: 300, outputTokens: 60 });
    const last = server().requests[2]?.body as { tool_choice: string; messages: Array<{ role: string }> };
    expect(last.tool_choice).toBe('required');
    expect(last.messages.slice(2)).toMatchInlineSnapshot(`
      [
        {
          "content": null,
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"a":12,"b":7,"op":"add"}",
                "name": "calculator",
              },
              "id": "call_1",
              "type": "function",
            },
          ],
        },
        {
          "content": "19",
          "role": "tool",
          "tool_call_id": "call_1",
        },
        {
          "content": "Next step.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"a":19,"b":3,"op":"multiply"}",
                "name": "calculator",
              },
              "id": "call_2",
              "type": "function",
            },
          ],
        },
        {
          "content": "57",
          "role": "tool",
          "tool_call_id": "call_2",
        },
      ]
    `);
  });

  it('runs Responses API steps to task_completion, carrying encrypted reasoning across turns', async () => {
    server().reply(
      sseResponse(
        responsesAnswer(
          { thinking: { text: 'Add, then multiply.', signature: 'gAAAAABencrypted1' }, toolCalls: [add] },
          'resp_1',
        ),
      ),
      sseResponse(responsesAnswer({ toolCalls: [multiply] }, 'resp_2')),
      sseResponse(responsesAnswer({ toolCalls: [done] }, 'resp_3')),
    );
    const provider = new OpenAIResponsesProvider({
      model: 'gpt-5.1',
      compatible: false,
      ...testProviderOptions(`${server().url}/v1`).options,
    });
    const result = await calculatorAgent(provider).run('What is (12 + 7) * 3?');
    expect(result.exit).toBe('task_completion');
    expect(result.iterations).toBe(3);
    const second = server().requests[1]?.body as { input: unknown[]; store: boolean };
    expect(second.store).toBe(false);
    expect(second.input.slice(1)).toMatchInlineSnapshot(`
      [
        {
          "encrypted_content": "gAAAAABencrypted1",
          "id": "rs_resp_1",
          "summary": [
            {
              "text": "Add, then multiply.",
              "type": "summary_text",
            },
          ],
          "type": "reasoning",
        },
        {
          "arguments": "{"a":12,"b":7,"op":"add"}",
          "call_id": "call_1",
          "name": "calculator",
          "type": "function_call",
        },
        {
          "call_id": "call_1",
          "output": "19",
          "type": "function_call_output",
        },
      ]
    `);
  });
});
