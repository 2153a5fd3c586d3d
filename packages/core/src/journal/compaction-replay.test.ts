import { DefaultTokenCounter } from '@agentloop/memory';
import type { ModelRequest } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import { MemoryJournal, ScriptedProvider, type ScriptStep } from '../testing/index.js';

const estimate = new DefaultTokenCounter({ loadTokenizer: false });
const inputTokensOf = (request: ModelRequest) =>
  estimate.countRequest({
    modelId: 'm',
    systemPrompt: request.systemPrompt,
    messages: request.messages,
    tools: request.tools,
  });
const isSummaryRequest = (request: ModelRequest) => request.systemPrompt.startsWith('You compact');

/** A tool that returns about 1,000 tokens, so that a few calls fill a 10,000-token window. */
const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `${path}: ${'x'.repeat(3_500)}`,
});

/** Reads `reads` files, then completes; a summarising request gets a summary. Usage is the request's size. */
function readingScript(reads: number): ScriptStep[] {
  let calls = 0;
  const step: ScriptStep = (request) => {
    const usage = { inputTokens: inputTokensOf(request), outputTokens: 20 };
    if (isSummaryRequest(request)) return { text: '## Task\nRead the files.\n## State\nHalf read.', usage };
    calls++;
    if (calls > reads) {
      return { toolCalls: [{ id: 'done', name: 'task_completion', arguments: { result: 'Read them.' } }], usage };
    }
    return { toolCalls: [{ id: `r${calls}`, name: 'read_file', arguments: { path: `f${calls}.ts` } }], usage };
  };
  return Array.from({ length: reads * 2 + 4 }, () => step);
}

function agentOn(provider: ScriptedProvider) {
  return new DefaultAgent(provider, {
    tools: [readFile],
    contextWindow: 10_000,
    maxIterations: 20,
    sessionId: 'session-1',
    now: () => 0,
  });
}

describe('compaction in a journaled run', () => {
  it('records the summary call, so that a replay neither calls the model nor changes the result', async () => {
    const provider = new ScriptedProvider(readingScript(10));
    const journal = new MemoryJournal({ now: () => 5 });
    const first = await agentOn(provider).run('Read the files f1.ts to f10.ts.', { journal });
    expect(first.exit).toBe('task_completion');
    expect(first.metrics.compactions).toBeGreaterThanOrEqual(1);
    expect(provider.requests.some((request) => isSummaryRequest(request as ModelRequest))).toBe(true);
    expect(journal.ran.filter((name) => name.startsWith('compaction:'))).toEqual([
      expect.stringMatching(/^compaction:\d+:threshold$/),
      ...Array.from({ length: first.metrics.compactions - 1 }, () => expect.stringMatching(/^compaction:/)),
    ]);

    const replaying = new ScriptedProvider([]);
    const agent = agentOn(replaying);
    const replayed = await agent.run('Read the files f1.ts to f10.ts.', {
      journal: new MemoryJournal({ records: journal.records }),
    });
    expect(replaying.requests).toEqual([]);
    expect(replayed).toEqual(first);
    expect(agent.memory.messages()[0]).toMatchObject({ role: 'user' });
  });
});
