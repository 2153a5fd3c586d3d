import type { CompactionRequest, Compactor } from '@agentloop/memory';
import { DefaultTokenCounter } from '@agentloop/memory';
import type { Message, ModelRequest } from '@agentloop/spec';
import { findHistoryProblem, messageText, ProviderError, systemMessage } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEventMap } from '../events/index.js';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';
import type { ScriptedResponse, ScriptStep } from '../testing/index.js';

const estimate = new DefaultTokenCounter({ loadTokenizer: false });
/** What a provider would report for a request: its tokens, counted as the agent's estimate counts them. */
const inputTokensOf = (request: ModelRequest) =>
  estimate.countRequest({
    modelId: 'm',
    systemPrompt: request.systemPrompt,
    messages: request.messages,
    tools: request.tools,
  });

/** A tool that returns 3,500 characters (about 1,000 tokens) about the file it reads. */
const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `${path}: ${'x'.repeat(3_500)}`,
});

const SUMMARY = '## Task\nRead the files.\n## State of the work\nRead the first files; the rest come next.';
const isSummaryRequest = (request: ModelRequest) => request.systemPrompt.startsWith('You compact');

/**
 * A script for a run of `reads` read_file calls, then task_completion, whose usage is the request's size:
 * as a real provider reports it. A summarising request gets the summary.
 */
function readingScript(
  reads: number,
  extra: (request: ModelRequest, call: number) => ScriptedResponse | undefined = () => undefined,
  /** How many times the estimate the provider counts. */
  factor = 1,
) {
  let calls = 0;
  const step: ScriptStep = (request) => {
    const usage = { inputTokens: Math.round(inputTokensOf(request) * factor), outputTokens: 20 };
    if (isSummaryRequest(request)) return { text: SUMMARY, usage };
    calls++;
    const special = extra(request, calls);
    if (special) return special;
    if (calls > reads) return { ...complete('read them all'), usage };
    return { toolCalls: [{ name: 'read_file', arguments: { path: `f${calls}.ts` } }], usage };
  };
  return Array.from({ length: reads * 2 + 4 }, () => step);
}

function agentRequests(requests: readonly Omit<ModelRequest, 'signal'>[]) {
  return requests.filter((request) => !isSummaryRequest(request as ModelRequest));
}

describe('automatic compaction', () => {
  it('compacts before a request that would pass 80% of the window, and keeps every request under it', async () => {
    const { agent, provider, events } = scriptedAgent(readingScript(14), {
      tools: [readFile],
      contextWindow: 10_000,
      maxIterations: 20,
    });
    const result = await agent.run('Read the files f1.ts to f14.ts.');

    expect(result.exit).toBe('task_completion');
    const starts = events.filter((event) => event.type === 'compaction-start');
    const ends = events.filter((event): event is AgentEventMap['compaction-end'] => event.type === 'compaction-end');
    expect(starts.length).toBeGreaterThanOrEqual(1);
    expect(starts[0]).toMatchObject({ reason: 'threshold', windowTokens: 10_000 });
    expect(starts[0]?.tokensBefore).toBeGreaterThan(8_000);
    expect(ends[0]).toMatchObject({
      reason: 'threshold',
      strategy: 'summary',
      kept: { systemMessages: 0, firstUserMessage: true },
      droppedMessages: 0,
    });
    expect(ends[0]?.tokensAfter).toBeLessThanOrEqual(4_000);
    expect(ends[0]?.tokensAfter).toBeLessThan(ends[0]?.tokensBefore ?? 0);
    // Every request the agent sent stayed under the threshold.
    for (const request of agentRequests(provider.requests))
      expect(inputTokensOf(request as ModelRequest)).toBeLessThanOrEqual(8_000);
    expect(result.metrics.compactions).toBe(ends.length);
  });

  it('sizes a compaction as the provider counts, when it counts three times what the estimate does', async () => {
    const reported: number[] = [];
    const { agent, events } = scriptedAgent(readingScript(20, undefined, 3), {
      tools: [readFile],
      contextWindow: 30_000,
      maxIterations: 30,
    });
    const afterCompaction: number[] = [];
    let compacted = false;
    agent.on('compaction-end', () => {
      compacted = true;
    });
    agent.on('usage', (event) => {
      if (event.usage.outputTokens !== 20) return;
      reported.push(event.usage.inputTokens);
      if (compacted) afterCompaction.push(event.usage.inputTokens);
      compacted = false;
    });
    const result = await agent.run('Read the files.');
    const compactions = events.filter((event) => event.type === 'compaction-end').length;
    // Each compaction aims at half the threshold, as the provider counts: the request after it is under 12,000.
    expect(afterCompaction.length).toBe(compactions);
    for (const tokens of afterCompaction) expect(tokens).toBeLessThanOrEqual(12_000);

    expect(result.exit).toBe('task_completion');
    // The compacted conversation is sized in the provider's measure: each compaction brings a request
    // well under the threshold of 24,000 tokens, so they are far apart. Between them only a step's new
    // messages are estimated, a third of what the provider counts, so a request may pass the threshold by
    // about that much; none comes near the window.
    expect(Math.max(...reported)).toBeLessThanOrEqual(24_000 + 3 * 1_100);
    expect(reported.filter((tokens) => tokens > 24_000).length).toBeLessThanOrEqual(compactions);
    expect(compactions).toBeGreaterThanOrEqual(2);
    expect(compactions).toBeLessThanOrEqual(7);
  });

  it('keeps the task, puts the summary after it, and keeps the recent steps whole and sound', async () => {
    const { agent, provider } = scriptedAgent(readingScript(14), {
      tools: [readFile],
      contextWindow: 10_000,
      maxIterations: 20,
    });
    let history: readonly Message[] = [];
    let iteration = 0;
    agent.on('compaction-start', (event) => {
      history = [...agent.memory.messages()];
      iteration = event.iteration ?? 0;
    });
    await agent.run('Read the files f1.ts to f14.ts.');
    const before = agentRequests(provider.requests)[iteration - 2] as ModelRequest;
    const after = agentRequests(provider.requests)[iteration - 1] as ModelRequest;

    expect(after.systemPrompt).toBe(before.systemPrompt);
    expect(messageText(after.messages[0] as Message)).toBe('Read the files f1.ts to f14.ts.');
    expect(messageText(after.messages[1] as Message)).toContain('<conversation_summary>');
    expect(messageText(after.messages[1] as Message)).toContain(SUMMARY);
    // The recent steps are the last ones before compaction, whole: the same calls and results.
    const recent = after.messages.slice(2);
    expect(recent.length).toBeGreaterThanOrEqual(2);
    expect(recent).toStrictEqual(history.slice(-recent.length));
    expect(recent[0]?.role).toBe('assistant');
    expect(findHistoryProblem(after.messages)).toBeUndefined();
  });

  it('lets go of the run’s messages a compaction replaced: the result keeps those still in the conversation', async () => {
    const { agent } = scriptedAgent(readingScript(14), { tools: [readFile], contextWindow: 10_000, maxIterations: 20 });
    const result = await agent.run('Read the files f1.ts to f14.ts.');
    const conversation = agent.memory.messages();

    // The task, kept at the start, then the recent steps after the summary: as the memory holds them.
    const [input, ...kept] = result.messages;
    expect(result.messages.length).toBeLessThan(1 + 15 * 2);
    expect(input).toBe(conversation[0]);
    expect(messageText(input as Message)).toBe('Read the files f1.ts to f14.ts.');
    expect(messageText(conversation[1] as Message)).toContain('<conversation_summary>');
    expect(kept).toStrictEqual(conversation.slice(2));
    expect(kept.every((message, index) => message === conversation[index + 2])).toBe(true);
  });

  it('keeps the system messages of the memory', async () => {
    const { agent, events } = scriptedAgent(readingScript(14), {
      tools: [readFile],
      contextWindow: 10_000,
      maxIterations: 20,
    });
    agent.memory.append(systemMessage('Always answer in French.'));
    await agent.run('Read the files f1.ts to f14.ts.');

    expect(events.find((event) => event.type === 'compaction-end')).toMatchObject({ kept: { systemMessages: 1 } });
    expect(agent.memory.messages()[0]).toStrictEqual(systemMessage('Always answer in French.'));
  });

  it('compacts at the threshold it is given', async () => {
    const { agent, events } = scriptedAgent(readingScript(5), {
      tools: [readFile],
      contextWindow: 10_000,
      compaction: { threshold: 0.35 },
    });
    await agent.run('Read the files.');
    const start = events.find((event) => event.type === 'compaction-start');

    // The system prompt, tools and task are about 850 tokens and each read about 1,050: about 2,900 at the third
    // request, and past 3,500 at the fourth.
    expect(start).toMatchObject({ iteration: 4, reason: 'threshold' });
    expect(start?.tokensBefore).toBeGreaterThan(3_500);
    expect(start?.tokensBefore).toBeLessThan(8_000);
  });

  it('does not compact with compaction: false', async () => {
    const { agent, events } = scriptedAgent(readingScript(12), {
      tools: [readFile],
      contextWindow: 10_000,
      maxIterations: 20,
      compaction: false,
    });
    await agent.run('Read the files.');

    expect(events.some((event) => event.type === 'compaction-start')).toBe(false);
  });

  it('uses the compactor it is given', async () => {
    const seen: CompactionRequest[] = [];
    const dropAll: Compactor = {
      async compact(request) {
        seen.push(request);
        const kept = request.messages.slice(0, 1);
        return {
          messages: kept,
          strategy: 'keep-first',
          kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 0 },
          summarizedMessages: 0,
          droppedMessages: request.messages.length - 1,
          droppedToolResults: 0,
        };
      },
    };
    const { agent, events } = scriptedAgent(readingScript(12), {
      tools: [readFile],
      contextWindow: 10_000,
      maxIterations: 20,
      compaction: { compactor: dropAll },
    });
    await agent.run('Read the files.');

    expect(seen[0]).toMatchObject({ reason: 'threshold', modelId: 'scripted-model' });
    // Half the threshold (4,000 tokens), less the system prompt and tools.
    expect(seen[0]?.targetTokens).toBeGreaterThan(2_500);
    expect(seen[0]?.targetTokens).toBeLessThan(4_000);
    expect(events.find((event) => event.type === 'compaction-end')).toMatchObject({
      strategy: 'keep-first',
      messagesAfter: 1,
    });
  });

  it("keeps a call and its replaced result together in the run's messages after a compaction", async () => {
    // Empties every tool result but the last two, as new message objects; the calls stay the same objects.
    const emptyResults: Compactor = {
      async compact(request) {
        const tools = request.messages.filter((message) => message.role === 'tool');
        const keep = new Set(tools.slice(-2));
        const messages = request.messages.map(
          (message): Message =>
            message.role === 'tool' && !keep.has(message)
              ? { ...message, content: message.content.map((part) => ({ ...part, content: '[emptied]' })) }
              : message,
        );
        return {
          messages,
          strategy: 'empty-results',
          kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 4 },
          summarizedMessages: 0,
          droppedMessages: 0,
          droppedToolResults: tools.length - keep.size,
        };
      },
    };
    const { agent, events } = scriptedAgent(readingScript(12), {
      tools: [readFile],
      contextWindow: 10_000,
      maxIterations: 20,
      compaction: { compactor: emptyResults },
    });
    const result = await agent.run('Read the files.');

    expect(events.some((event) => event.type === 'compaction-end')).toBe(true);
    expect(result.exit).toBe('task_completion');
    expect(findHistoryProblem(result.messages)).toBeUndefined();
    expect(
      result.messages.some((message) => message.role === 'tool' && JSON.stringify(message).includes('[emptied]')),
    ).toBe(true);
  });

  it('ends the run with compaction_failed when a compactor returns a history no provider accepts', async () => {
    const broken: Compactor = {
      async compact(request) {
        // The assistant's call without its result.
        return {
          messages: request.messages.slice(0, 2),
          strategy: 'broken',
          kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 1 },
          summarizedMessages: 0,
          droppedMessages: 0,
          droppedToolResults: 0,
        };
      },
    };
    const { agent, events } = scriptedAgent(readingScript(12), {
      tools: [readFile],
      contextWindow: 10_000,
      maxIterations: 20,
      compaction: { compactor: broken },
    });
    const result = await agent.run('Read the files.');
    const before = agent.memory.messages().length;

    expect(result.exit).toBe('error');
    expect(result.error?.code).toBe('compaction_failed');
    expect(result.error?.message).toMatch(
      /^Compaction failed: it returned a history no provider accepts: tool call "call_1_1" \(read_file\) has no result before the end of the history\. The conversation was left as it was\.$/,
    );
    expect(events.find((event) => event.type === 'compaction-end')).toMatchObject({
      error: { code: 'compaction_failed' },
    });
    expect(before).toBeGreaterThan(2);
  });
});

describe('a request rejected as too long', () => {
  const tooLong = new ProviderError('prompt is too long: 212000 tokens > 200000 maximum', {
    code: 'context_length',
    provider: 'scripted',
    statusCode: 400,
  });

  it('is compacted and sent again once, in the same iteration', async () => {
    const { agent, provider, events } = scriptedAgent(
      readingScript(4, (_request, call) => (call === 4 ? { error: tooLong } : undefined)),
      { tools: [readFile] },
    );
    const result = await agent.run('Read the files.');

    expect(result.exit).toBe('task_completion');
    expect(events.find((event) => event.type === 'compaction-start')).toMatchObject({
      reason: 'context_length',
      iteration: 4,
    });
    expect(events.find((event) => event.type === 'compaction-end')).toMatchObject({
      reason: 'context_length',
      strategy: 'summary',
    });
    const requests = agentRequests(provider.requests) as ModelRequest[];
    // The rejected request and its retry are the same iteration's: the retry is the smaller.
    expect(requests[4]?.messages.length).toBeLessThan(requests[3]?.messages.length ?? 0);
    // Three reads, then the rejected call and its retry, which completes: four iterations, five calls.
    expect(result.iterations).toBe(4);
    expect(result.metrics.modelCalls).toBe(5);
  });

  it('fails the run when it is rejected again after the compaction', async () => {
    const { agent, events } = scriptedAgent(
      readingScript(4, (_request, call) => (call >= 4 ? { error: tooLong } : undefined)),
      { tools: [readFile] },
    );
    const result = await agent.run('Read the files.');

    expect(result.exit).toBe('error');
    expect(result.error?.code).toBe('context_length');
    expect(events.filter((event) => event.type === 'compaction-start')).toHaveLength(1);
  });

  it('fails the run at once with compaction: false', async () => {
    const { agent, events } = scriptedAgent(
      readingScript(4, (_request, call) => (call === 2 ? { error: tooLong } : undefined)),
      { tools: [readFile], compaction: false },
    );
    const result = await agent.run('Read the files.');

    expect(result.error?.code).toBe('context_length');
    expect(events.some((event) => event.type === 'compaction-start')).toBe(false);
  });
});

describe('agent.compact()', () => {
  it('compacts on demand with a summary, and counts it in the agent’s metrics', async () => {
    const { agent, provider, events } = scriptedAgent(readingScript(6), { tools: [readFile] });
    await agent.run('Read the files.');
    const before = agent.memory.messages().length;
    const report = await agent.compact();

    expect(report).toMatchObject({ type: 'compaction-end', reason: 'manual', strategy: 'summary' });
    expect(Object.keys(report)).not.toContain('retained');
    expect(Object.keys(report)).not.toContain('pricing');
    expect(report).not.toHaveProperty('iteration');
    expect(report.messagesBefore).toBe(before);
    expect(agent.memory.messages().length).toBe(report.messagesAfter);
    expect(report.messagesAfter).toBeLessThan(before);
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    expect(events.filter((event) => event.type === 'compaction-start')).toHaveLength(1);
    expect(agent.metrics.compactions).toBe(1);
    expect(agent.metrics.usage.inputTokens).toBe(
      provider.requests.reduce((sum, request) => sum + inputTokensOf(request as ModelRequest), 0),
    );
  });

  it('compacts when automatic compaction is off', async () => {
    const { agent } = scriptedAgent(readingScript(6), { tools: [readFile], compaction: false });
    await agent.run('Read the files.');

    expect((await agent.compact()).strategy).toBe('summary');
  });

  it('reports a no-op on a short conversation: strategy none, the same figures, not counted', async () => {
    const { agent, provider, events } = scriptedAgent([complete('hello')]);
    await agent.run('Say hello.');
    const messages = agent.memory.messages();
    const report = await agent.compact();

    expect(report).toMatchObject({ type: 'compaction-end', reason: 'manual', strategy: 'none' });
    expect(report.error).toBeUndefined();
    expect(report.tokensAfter).toBe(report.tokensBefore);
    expect(report.messagesAfter).toBe(report.messagesBefore);
    expect(agent.memory.messages()).toEqual(messages);
    expect(events.filter((event) => event.type === 'compaction-end')).toEqual([report]);
    expect(agent.metrics.compactions).toBe(0);
    // No summarising call was made for it.
    expect(provider.requests).toHaveLength(1);
  });

  it('refuses while a run is going', async () => {
    const { agent } = scriptedAgent([{ hang: true }]);
    const run = agent.run('go');
    await expect(agent.compact()).rejects.toMatchObject({ code: 'agent_busy' });
    agent.cancel();
    await run;
  });
});

describe('compaction options', () => {
  it.each([
    [{ contextWindow: 0 }, 'contextWindow must be a whole number of tokens above 0, got 0.'],
    [{ contextWindow: 1.5 }, 'contextWindow must be a whole number of tokens above 0, got 1.5.'],
    [
      { compaction: { threshold: 1.5 } },
      'compaction.threshold must be a share of the context window above 0 and at most 1 (0.8 is 80%), got 1.5.',
    ],
    [
      { compaction: { threshold: 0 } },
      'compaction.threshold must be a share of the context window above 0 and at most 1 (0.8 is 80%), got 0.',
    ],
    [{ compaction: true }, 'compaction must be false or an object of options ({ threshold, compactor }), got true.'],
    [{ compaction: { compactor: {} } }, 'compaction.compactor must be a Compactor, with a compact(request) method.'],
  ])('refuses %j', (options, message) => {
    expect(() => scriptedAgent([], options as never)).toThrow(message);
  });
});
