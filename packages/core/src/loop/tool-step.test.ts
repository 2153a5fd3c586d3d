import { defineTool, ToolRegistry } from '@agentloop/tools';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentEventBus } from '../events/index.js';
import { DirectJournal } from '../journal/index.js';
import { MetricsTotals } from '../tokens/metrics-totals.js';
import type { ToolStep, ToolStepContext } from './tool-step.js';
import { runToolStep } from './tool-step.js';

function delayedTool(name: string, ms: number, log: string[]) {
  return defineTool({
    name,
    description: `finishes after ${ms} ms`,
    parameters: z.object({}),
    execute: async () => {
      log.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`end ${name}`);
      return `${name} done`;
    },
  });
}

function context(overrides: Partial<ToolStepContext> = {}): ToolStepContext {
  return {
    events: new AgentEventBus(),
    signal: new AbortController().signal,
    sessionId: 's',
    runId: 'r',
    workspace: '/w',
    now: () => Date.now(),
    journal: new DirectJournal(),
    maxParallelTools: Number.POSITIVE_INFINITY,
    callOptions: {},
    timing: { toolTimeMs: 0 },
    samplingUsage: { metrics: new MetricsTotals(), sessionMetrics: new MetricsTotals() },
    ...overrides,
  };
}

function toolStep(tools: ToolRegistry, overrides: Partial<ToolStep> = {}): ToolStep {
  return { iteration: 1, tools, allowMultipleCalls: true, loopControlOnly: false, outputResult: false, ...overrides };
}

describe('runToolStep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs three calls concurrently and keeps their results in call order', async () => {
    const log: string[] = [];
    const tools = new ToolRegistry([
      delayedTool('slow', 300, log),
      delayedTool('medium', 200, log),
      delayedTool('fast', 100, log),
    ]);
    const calls = ['slow', 'medium', 'fast'].map((name, index) => ({
      type: 'tool-call' as const,
      toolCallId: `c${index}`,
      toolName: name,
      arguments: {},
    }));
    const step = runToolStep(context(), toolStep(tools), calls);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['start slow', 'start medium', 'start fast']);
    await vi.advanceTimersByTimeAsync(300);
    const result = await step;
    expect(log.slice(3)).toEqual(['end fast', 'end medium', 'end slow']);
    expect(result.outcomes.map((outcome) => outcome.content)).toEqual(['slow done', 'medium done', 'fast done']);
  });

  it('takes as long as the slowest call, not the sum', async () => {
    const log: string[] = [];
    const tools = new ToolRegistry([
      delayedTool('a', 300, log),
      delayedTool('b', 300, log),
      delayedTool('c', 300, log),
    ]);
    const calls = ['a', 'b', 'c'].map((name) => ({
      type: 'tool-call' as const,
      toolCallId: name,
      toolName: name,
      arguments: {},
    }));
    let done = false;
    const step = runToolStep(context(), toolStep(tools), calls).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await step;
    expect(done).toBe(true);
  });

  it('runs only the first call when several are not allowed, and tells the model about the rest', async () => {
    const log: string[] = [];
    const tools = new ToolRegistry([delayedTool('a', 1, log), delayedTool('b', 1, log)]);
    const step = runToolStep(context(), toolStep(tools, { allowMultipleCalls: false }), [
      { type: 'tool-call', toolCallId: 'x', toolName: 'a', arguments: {} },
      { type: 'tool-call', toolCallId: 'y', toolName: 'b', arguments: {} },
    ]);
    await vi.advanceTimersByTimeAsync(1);
    const result = await step;
    expect(log).toEqual(['start a', 'end a']);
    expect(result.outcomes[1]).toMatchObject({
      status: 'error',
      code: 'not_run',
      content: expect.stringContaining('only one tool call per response'),
    });
  });

  it('exits on the first valid loop-control call and answers a second one as not run', async () => {
    const tools = new ToolRegistry();
    const result = await runToolStep(context(), toolStep(tools), [
      { type: 'tool-call', toolCallId: 'a', toolName: 'converse', arguments: { message: 'hi' } },
      { type: 'tool-call', toolCallId: 'b', toolName: 'task_completion', arguments: { result: 'r' } },
    ]);
    expect(result.exit).toEqual({ exit: 'converse', payload: { message: 'hi' } });
    expect(result.outcomes[1]).toMatchObject({
      status: 'error',
      code: 'not_run',
      content: 'Not run: the turn ended before this call.',
    });
  });
});
