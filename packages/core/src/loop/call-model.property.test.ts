import type { LLMProvider, ModelChunk } from '@agentloop/spec';
import { ProviderError } from '@agentloop/spec';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DefaultAgent } from '../agent/default-agent.js';
import type { AgentEvent } from '../events/index.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';

/** A provider that answers every request with `batches`, in that order. */
function batchedStream(batches: readonly (readonly ModelChunk[])[]): LLMProvider {
  return {
    specificationVersion: 'v2',
    id: 'batched',
    capabilities: new ScriptedProvider([]).capabilities,
    async *stream() {
      yield* batches;
    },
  };
}

/** The chunks cut into network reads: a cut after chunk `index` where `cuts[index]` is true. */
function split(chunks: readonly ModelChunk[], cuts: readonly boolean[]): ModelChunk[][] {
  const batches: ModelChunk[][] = [[]];
  for (const [index, chunk] of chunks.entries()) {
    (batches.at(-1) as ModelChunk[]).push(chunk);
    if (cuts[index] && index < chunks.length - 1) batches.push([]);
  }
  return batches;
}

/** The events of a one-step run over `batches`, as JSON (the XML protocol's random call-id part masked). */
async function eventsOf(batches: readonly (readonly ModelChunk[])[], toolProtocol: 'native' | 'xml') {
  const agent = new DefaultAgent(batchedStream(batches), { toolProtocol, now: () => 0, createId: () => 'run-1' });
  const events: AgentEvent[] = [];
  agent.onAny((event) => events.push(event));
  await agent.run('Say hello, then finish.');
  return JSON.parse(
    JSON.stringify(events)
      .replace(/xml_[0-9a-f]{8}_/g, 'xml_…_')
      .replace(/"runId":"[^"]*"/g, '"runId":"…"'),
  ) as unknown;
}

// What a native answer streams, as recorded: a first attempt cut off and retried, then thinking with its
// signature, text, a loop-control tool call, usage and the finish.
const nativeStream: ModelChunk[] = [
  { type: 'text-delta', text: 'Hel' },
  {
    type: 'retry',
    attempt: 1,
    delayMs: 0,
    discardOutput: true,
    error: new ProviderError('cut', { code: 'stream_broken', provider: 'batched' }),
  },
  { type: 'thinking-delta', text: 'The user wants ' },
  { type: 'thinking-delta', text: 'a greeting.' },
  { type: 'thinking-end', signature: 'sig-1' },
  { type: 'text-delta', text: 'Hel' },
  { type: 'text-delta', text: 'lo!' },
  { type: 'tool-call-start', toolCallId: 'call_1', toolName: 'task_completion' },
  { type: 'tool-call', toolCallId: 'call_1', toolName: 'task_completion', input: '{"result":"Said hello."}' },
  { type: 'usage', usage: { inputTokens: 120, outputTokens: 30 } },
  { type: 'finish', reason: 'tool-calls', rawReason: 'tool_use' },
];

// The same answer in the XML protocol: thinking and the tool block in the text, split mid-tag.
const xmlStream: ModelChunk[] = [
  '<think',
  'ing>The user wants a greeting.</thi',
  'nking>Hello!\n<to',
  'ol>\n{"server_name": "local", "tool_na',
  'me": "task_completion", "arguments": {"result": "Said hello."}}\n</tool',
  '>',
]
  .map((text): ModelChunk => ({ type: 'text-delta', text }))
  .concat([
    { type: 'usage', usage: { inputTokens: 100, outputTokens: 40 } },
    { type: 'finish', reason: 'stop', rawReason: 'end_turn' },
  ]);

describe('a model stream split into network reads', () => {
  test.each([
    ['native', nativeStream],
    ['xml', xmlStream],
  ] as const)('gives the agent the same events in the %s protocol, however it is split', async (protocol, chunks) => {
    const whole = await eventsOf([chunks], protocol);
    // The run did what the stream says, so that the comparison is not between two failures.
    expect(whole).toContainEqual(expect.objectContaining({ type: 'task-complete', result: 'Said hello.' }));
    expect(whole).toContainEqual(expect.objectContaining({ type: 'message-content', text: expect.any(String) }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: chunks.length, maxLength: chunks.length }), async (cuts) => {
        expect(await eventsOf(split(chunks, cuts), protocol)).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });
});
