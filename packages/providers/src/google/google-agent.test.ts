import { type AgentEvent, DefaultAgent } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { calculatorTool, sseResponse, testProviderOptions, useFixtureServer } from '../test-support/index.js';
import { GoogleProvider } from './google-provider.js';

// A DefaultAgent runs several steps against a local server that answers each request in turn, with
// responses of the Gemini API's shape (see google-provider.test.ts for recorded ones).
const server = useFixtureServer();

/** One streamed Gemini answer: each part list a response, the last with its finish reason and usage. */
function geminiAnswer(...responses: unknown[][]): string[] {
  return responses.map((parts, index) => {
    const last = index === responses.length - 1;
    const body = {
      candidates: [{ content: { role: 'model', parts }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, thoughtsTokenCount: 5 },
    };
    return `data: ${JSON.stringify(body)}\n\n`;
  });
}

function provider(model: string) {
  const { clientOptions: _sdkOptions, ...shared } = testProviderOptions(server().url).options;
  let count = 0;
  return new GoogleProvider({ model, ...shared, generateId: () => `call${++count}` });
}

describe('DefaultAgent with GoogleProvider', () => {
  it('runs parallel calls to task_completion in native mode, sending signatures and results back', async () => {
    const step1 = geminiAnswer(
      [{ text: 'Both sums at once.', thought: true }],
      [
        { functionCall: { name: 'calculator', args: { a: 12, b: 7, op: 'add' } }, thoughtSignature: 'c2lnLWNhbGxz' },
        { functionCall: { name: 'calculator', args: { a: 2, b: 3, op: 'add' } } },
      ],
    );
    server().reply(
      sseResponse(step1, { fault: { after: 1, kind: 'reset' } }),
      sseResponse(step1),
      sseResponse(
        geminiAnswer(
          [{ text: '19 and 5.' }],
          [
            {
              functionCall: { name: 'task_completion', args: { result: '19 and 5' } },
              thoughtSignature: 'c2lnLWRvbmU=',
            },
          ],
        ),
      ),
    );
    const agent = new DefaultAgent(provider('gemini-2.5-flash'), {
      systemPrompt: 'You compute with the calculator.',
      maxIterations: 4,
      toolProtocol: 'native',
    });
    agent.registerTool(calculatorTool);
    const events: AgentEvent[] = [];
    for (const name of ['retry', 'thinking-content', 'tool-result'] as const)
      agent.on(name, (event) => events.push(event));

    const result = await agent.run('What are 12 + 7 and 2 + 3?');

    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: '19 and 5' });
    expect(result.iterations).toBe(2);
    expect(result.usage).toMatchObject({ inputTokens: 200, outputTokens: 30, reasoningTokens: 10 });
    expect(events.map((event) => event.type)).toEqual([
      'thinking-content',
      'retry',
      'thinking-content',
      'tool-result',
      'tool-result',
      'tool-result',
    ]);
    expect(events.flatMap((event) => (event.type === 'tool-result' ? [event.content] : [])).slice(0, 2)).toEqual([
      '19',
      '5',
    ]);
    expect(server().requests).toHaveLength(3);
    const last = server().requests[2]?.body as { contents: unknown; toolConfig: unknown; systemInstruction: unknown };
    expect(last.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(last.contents).toEqual([
      { role: 'user', parts: [{ text: 'What are 12 + 7 and 2 + 3?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Both sums at once.', thought: true },
          {
            functionCall: { id: 'call1', name: 'calculator', args: { a: 12, b: 7, op: 'add' } },
            thoughtSignature: 'c2lnLWNhbGxz',
          },
          { functionCall: { id: 'call2', name: 'calculator', args: { a: 2, b: 3, op: 'add' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call1', name: 'calculator', response: { output: '19' } } },
          { functionResponse: { id: 'call2', name: 'calculator', response: { output: '5' } } },
        ],
      },
    ]);
  });

  it('gives Gemma, which has no function calling, the XML protocol, its instructions in the first user turn', async () => {
    const call = JSON.stringify({
      server_name: 'local',
      tool_name: 'calculator',
      arguments: { a: 6, b: 7, op: 'multiply' },
    });
    const done = JSON.stringify({ server_name: 'local', tool_name: 'task_completion', arguments: { result: '42' } });
    // The model stops at the stop sequence `</tool>`, which the API leaves out of the text.
    server().reply(
      sseResponse(geminiAnswer([{ text: '<thinking>Multiply.</thinking>\n<tool>\n' }], [{ text: `${call}\n` }])),
      sseResponse(geminiAnswer([{ text: `<tool>\n${done}\n` }])),
    );
    const agent = new DefaultAgent(provider('gemma-3-27b-it'), {
      systemPrompt: 'You compute with the calculator.',
      maxIterations: 4,
    });
    agent.registerTool(calculatorTool);
    const thinking: string[] = [];
    agent.on('thinking-content', (event) => thinking.push(event.text));

    const result = await agent.run('What is 6 * 7?');

    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: '42' });
    expect(thinking.join('')).toBe('Multiply.');
    const first = server().requests[0]?.body as Record<string, unknown> & {
      contents: Array<{ role: string; parts: Array<{ text: string }> }>;
      generationConfig: Record<string, unknown>;
    };
    expect(first.tools).toBeUndefined();
    expect(first.systemInstruction).toBeUndefined();
    // No thinking config: Gemma does not think, and the API rejects one.
    expect(Object.keys(first.generationConfig)).toEqual(['stopSequences']);
    expect(first.generationConfig.stopSequences).toContain('</tool>');
    const [instructions, question] = first.contents[0]?.parts ?? [];
    expect(instructions?.text).toContain('You compute with the calculator.');
    expect(instructions?.text).toContain('<tool>');
    expect(question).toEqual({ text: 'What is 6 * 7?' });
    const second = server().requests[1]?.body as { contents: Array<{ role: string; parts: unknown[] }> };
    expect(second.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
  });
});
