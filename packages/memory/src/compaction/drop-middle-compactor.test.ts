import type { Message } from '@agentloop/spec';
import { findHistoryProblem, messageText, systemMessage, toolCallsOf, userMessage } from '@agentloop/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chars, nativeStep, xmlStep } from '../test-support/test-conversation.js';
import { DefaultTokenCounter } from '../tokens/default-token-counter.js';
import { planCompaction } from './compaction-plan.js';
import type { CompactionRequest } from './compactor.js';
import { DropMiddleCompactor } from './drop-middle-compactor.js';

const counter = new DefaultTokenCounter({ loadTokenizer: false });
const count = (messages: readonly Message[]) => counter.countMessages(messages, 'model');
const request = (messages: readonly Message[], targetTokens: number): CompactionRequest => ({
  messages,
  targetTokens,
  modelId: 'model',
  counter,
  provider: undefined as never,
  reason: 'threshold',
  signal: new AbortController().signal,
});

/** The instructions, the task, then `steps` native steps of one 3,500-character result each (about 1,000 tokens). */
function longRun(steps: number): Message[] {
  return [
    systemMessage('Use metric units.'),
    userMessage('Fix the failing tests.'),
    ...Array.from({ length: steps }, (_, index) => nativeStep(`s${index + 1}`, [chars(3_500)])).flat(),
  ];
}

/** The content of the first result of a tool message. */
function resultText(message: Message | undefined): string | undefined {
  return message?.role === 'tool' ? message.content[0]?.content : undefined;
}

describe('planCompaction', () => {
  it('keeps the system messages and the first user message in the head', () => {
    const plan = planCompaction(longRun(4), { recentTokens: 0, count });

    expect(plan.head).toStrictEqual([systemMessage('Use metric units.'), userMessage('Fix the failing tests.')]);
    expect(plan).toMatchObject({ systemMessages: 1, firstUserMessage: true });
  });

  it('keeps whole steps at the end within the recent budget, and at least the last one', () => {
    // One step is about 1,040 tokens: 2,100 tokens hold two of them.
    expect(planCompaction(longRun(5), { recentTokens: 2_100, count }).recent.map(messageText)).toEqual([
      'Step s4.',
      '',
      'Step s5.',
      '',
    ]);
    expect(planCompaction(longRun(5), { recentTokens: 10, count }).recent).toHaveLength(2);
  });

  it('never starts the recent part on a result, in the native or the XML protocol', () => {
    const xml = [userMessage('task'), ...xmlStep('a', chars(100)), ...xmlStep('b', chars(100))];
    const plan = planCompaction(xml, { recentTokens: 1, count });

    expect(plan.recent.map((message) => message.role)).toEqual(['assistant', 'user']);
    expect(plan.middle.map((message) => message.role)).toEqual(['assistant', 'user']);
  });
});

describe('DropMiddleCompactor', () => {
  it('leaves a conversation that fits as it is', async () => {
    const messages = longRun(3);
    const result = await new DropMiddleCompactor().compact(request(messages, 100_000));

    expect(result.messages).toStrictEqual(messages);
    expect(result).toMatchObject({ strategy: 'drop-middle', droppedMessages: 0, droppedToolResults: 0 });
  });

  it('empties the oldest tool results first, keeping their calls', async () => {
    const messages = longRun(6);
    // 6 steps of about 1,040 tokens; 5,000 tokens are reached by emptying two of them.
    const result = await new DropMiddleCompactor().compact(request(messages, 5_000));

    expect(result.droppedToolResults).toBe(2);
    expect(result.droppedMessages).toBe(0);
    expect(result.messages.flatMap(toolCallsOf)).toHaveLength(6);
    expect(resultText(result.messages[3])).toBe(
      '[This result was dropped to fit the context window (3,500 characters). Run the tool again if you need it.]',
    );
    expect(resultText(result.messages[7])).toBe(chars(3_500));
    expect(count(result.messages)).toBeLessThanOrEqual(5_000);
  });

  it('then drops whole older steps, with a marker that says what was dropped', async () => {
    const messages = longRun(10);
    const result = await new DropMiddleCompactor().compact(request(messages, 1_500));

    expect(count(result.messages)).toBeLessThanOrEqual(1_500);
    expect(result.droppedMessages).toBeGreaterThan(0);
    const marker = messageText(result.messages[2] as Message);
    expect(marker).toBe(
      `[Compaction: ${result.droppedMessages} earlier messages were dropped here to fit the context window, with ${result.droppedMessages / 2} tool calls (read_file ×${result.droppedMessages / 2}) and their results. What they said is gone: look again, or ask the user, if you need it.]`,
    );
    // The task and the last step are whole.
    expect(result.messages.slice(0, 2)).toStrictEqual(messages.slice(0, 2));
    expect(result.messages.slice(-2)).toStrictEqual(messages.slice(-2));
    expect(result.kept).toEqual({ systemMessages: 1, firstUserMessage: true, recentMessages: 2 });
  });

  it('empties the XML protocol results too', async () => {
    const messages = [userMessage('task'), ...[1, 2, 3, 4].flatMap((n) => xmlStep(`x${n}`, chars(3_500)))];
    const result = await new DropMiddleCompactor().compact(request(messages, 3_400));

    expect(result.droppedToolResults).toBe(1);
    expect(messageText(result.messages[2] as Message)).toBe(
      '[This result was dropped to fit the context window (3,551 characters). Run the tool again if you need it.]',
    );
  });

  it('keeps the history sound, whatever the conversation and the target', async () => {
    const step = fc.oneof(
      fc.array(fc.nat(2_000), { minLength: 1, maxLength: 3 }).map(
        (sizes) => (id: string) =>
          nativeStep(
            id,
            sizes.map((size) => chars(size)),
          ),
      ),
      fc.nat(2_000).map((size) => (id: string) => xmlStep(id, chars(size))),
      fc.string({ maxLength: 200 }).map((text) => () => [userMessage(`more: ${text}`)]),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), fc.nat(20_000), async (steps, target) => {
        const messages: Message[] = [
          systemMessage('rules'),
          userMessage('task'),
          ...steps.flatMap((make, index) => make(`s${index}`)),
        ];
        const result = await new DropMiddleCompactor().compact(request(messages, target));

        expect(findHistoryProblem(result.messages)).toBeUndefined();
        expect(result.messages.slice(0, 2)).toStrictEqual(messages.slice(0, 2));
        // Never longer than it was, and the last message is the last message.
        expect(count(result.messages)).toBeLessThanOrEqual(count(messages) + 60);
        expect(result.messages.at(-1)).toBe(messages.at(-1));
      }),
      { numRuns: 200 },
    );
  });
});
