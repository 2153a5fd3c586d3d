import { afterEach, describe, expect, it, vi } from 'vitest';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';
import { openTelemetryLibrary } from '../tracing/index.js';

// What a run imports before its loop starts, so that an app's bundler sees the imports and the loop's
// synchronous code (the XML parsers, span making) finds the libraries loaded.
const prepared = vi.hoisted(() => [] as unknown[]);
vi.mock('@agentloop/tools', async (importOriginal) => {
  const original = await importOriginal<typeof import('@agentloop/tools')>();
  return {
    ...original,
    prepareTools: async (options: unknown) => {
      prepared.push(options);
      await original.prepareTools(options as Parameters<typeof original.prepareTools>[0]);
    },
  };
});

const textOnly = { capabilities: { nativeTools: false } };
const xmlCompletion = {
  text: '<tool>{"server_name": "local", "tool_name": "task_completion", "arguments": {"result": "ok"}}</tool>',
};

afterEach(() => {
  prepared.length = 0;
  vi.restoreAllMocks();
});

describe('the libraries a run loads before its loop', () => {
  it('are the XML protocol’s parsers for an agent that speaks XML, before loop-start', async () => {
    const { agent, types } = scriptedAgent([xmlCompletion], {}, textOnly);
    const seenAtPrepare: string[][] = [];
    agent.once('loop-start', () => seenAtPrepare.push([...prepared.map((options) => JSON.stringify(options))]));
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    expect(seenAtPrepare).toEqual([['{"xml":true,"schemas":false}']]);
    expect(types()[0]).toBe('loop-start');
  });

  it('are none for a native run without tracing, which keeps its cold start', async () => {
    const load = vi.spyOn(openTelemetryLibrary, 'load');
    const { agent } = scriptedAgent([complete('done')]);
    await agent.run('go');
    expect(prepared).toEqual([]);
    expect(load).not.toHaveBeenCalled();
  });

  it('are the OpenTelemetry API for an agent with tracing on, loaded before loop-start', async () => {
    const order: string[] = [];
    const original = openTelemetryLibrary.load;
    vi.spyOn(openTelemetryLibrary, 'load').mockImplementation(() => {
      order.push('load');
      return original();
    });
    const { agent } = scriptedAgent([complete('done')], { tracing: true });
    agent.once('loop-start', () => order.push('loop-start'));
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    expect(order).toEqual(['load', 'loop-start']);
  });
});
