import { ProviderError } from '@agentloop/spec';
import { defineTool, type ElicitationRequest, type ElicitationResult, type SamplingRequest } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import type { AgentEventMap } from '../events/index.js';
import { MemoryJournal, ScriptedProvider, type ScriptStep } from '../testing/index.js';

const FORM: ElicitationRequest = {
  mode: 'form',
  server: 'tickets',
  message: 'Which project?',
  schema: {
    type: 'object',
    properties: {
      project: { type: 'string', title: 'Project' },
      priority: { type: 'integer', default: 3 },
      urgent: { type: 'boolean', default: false },
    },
    required: ['project'],
  },
};

/** A tool that makes the given request through its context and returns what it got, as JSON. */
function askingTool(ask: 'elicit' | 'sample', request: ElicitationRequest | SamplingRequest) {
  return defineTool({
    name: 'ask',
    description: 'Asks.',
    parameters: z.object({}),
    execute: async (_args, context) => {
      if (ask === 'elicit') return JSON.stringify(await context.elicit?.(request as ElicitationRequest));
      return JSON.stringify(await context.sample?.(request as SamplingRequest));
    },
  });
}

function agentAsking(
  ask: 'elicit' | 'sample',
  request: ElicitationRequest | SamplingRequest,
  options: ConstructorParameters<typeof DefaultAgent>[1] = {},
  between: ScriptStep[] = [],
) {
  const provider = new ScriptedProvider([
    { toolCalls: [{ name: 'ask', arguments: {}, id: 'call-ask' }] },
    ...between,
    { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
  ]);
  const agent = new DefaultAgent(provider, { ...options, tools: [askingTool(ask, request)] });
  const results: string[] = [];
  agent.on('tool-result', (event) => {
    if (event.name === 'ask') results.push(event.content);
  });
  agent.on('tool-result-error', (event) => results.push(`error: ${event.content}`));
  return { agent, provider, results };
}

describe('elicitation through the agent', () => {
  it('emits elicitation-requested with the form and gives the tool the answer, defaults filled in', async () => {
    const { agent, results } = agentAsking('elicit', FORM, { createId: () => 'run-1' });
    const requested: AgentEventMap['elicitation-requested'][] = [];
    const resolved: string[] = [];
    agent.on('elicitation-requested', (event) => {
      requested.push(event);
      agent.answerElicitation(event.requestId, { action: 'accept', content: { project: 'web', urgent: true } });
    });
    agent.on('elicitation-resolved', (event) => resolved.push(`${event.requestId} ${event.action}`));
    await agent.run('go');
    expect(requested).toEqual([
      {
        type: 'elicitation-requested',
        eventId: expect.stringMatching(/\/tool:1:call-ask\/elicitation-requested\/1$/),
        iteration: 1,
        requestId: 'elicitation-run-1-1',
        toolCallId: 'call-ask',
        name: 'ask',
        server: 'tickets',
        message: 'Which project?',
        mode: 'form',
        schema: FORM.mode === 'form' ? FORM.schema : undefined,
      },
    ]);
    expect(resolved).toEqual(['elicitation-run-1-1 accept']);
    expect(results.map((text) => JSON.parse(text))).toEqual([
      { action: 'accept', content: { project: 'web', priority: 3, urgent: true } },
    ]);
  });

  it('makes request ids unique across runs: each run’s count starts again after its run id', async () => {
    const runIds = ['run-a', 'run-b'];
    const { agent } = agentAsking('elicit', FORM, { createId: () => runIds.shift() ?? 'run-more' }, [
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'first' } }] },
      { toolCalls: [{ name: 'ask', arguments: {}, id: 'call-ask' }] },
    ]);
    const requested: string[] = [];
    agent.on('elicitation-requested', (event) => {
      requested.push(event.requestId);
      agent.answerElicitation(event.requestId, { action: 'decline' });
    });
    await agent.run('first');
    await agent.run('second');
    expect(requested).toEqual(['elicitation-run-a-1', 'elicitation-run-b-1']);
  });

  it('declines at once when nothing listens for elicitation-requested (nobody can answer)', async () => {
    const { agent, results } = agentAsking('elicit', FORM);
    await agent.run('go');
    expect(results).toEqual([JSON.stringify({ action: 'decline' })]);
  });

  it('cancels the request when the run is cancelled', async () => {
    const { agent } = agentAsking('elicit', FORM);
    const resolved: ElicitationResult['action'][] = [];
    agent.on('elicitation-requested', () => agent.cancel());
    agent.on('elicitation-resolved', (event) => resolved.push(event.action));
    expect((await agent.run('go')).exit).toBe('cancelled');
    expect(resolved).toEqual(['cancel']);
  });

  it('refuses an answer that leaves a required field empty, and an id that is not waiting', async () => {
    const { agent, results } = agentAsking('elicit', FORM);
    const errors: string[] = [];
    agent.on('elicitation-requested', (event) => {
      try {
        agent.answerElicitation(event.requestId, { action: 'accept', content: { project: '' } });
      } catch (error) {
        errors.push((error as Error).message);
      }
      agent.answerElicitation(event.requestId, { action: 'decline' });
    });
    await agent.run('go');
    expect(errors).toEqual([
      'The elicitation answer leaves required field "project" empty: fill it in, or answer with decline or cancel.',
    ]);
    expect(results).toEqual([JSON.stringify({ action: 'decline' })]);
    expect(() => agent.answerElicitation('elicitation-1', { action: 'cancel' })).toThrow(
      expect.objectContaining({ code: 'unknown_elicitation' }),
    );
  });

  it('passes a URL request on with its url, and accepts it without content', async () => {
    const request: ElicitationRequest = { mode: 'url', message: 'Sign in', url: 'https://example.com/login' };
    const { agent, results } = agentAsking('elicit', request);
    const urls: (string | undefined)[] = [];
    agent.on('elicitation-requested', (event) => {
      urls.push(event.url);
      agent.answerElicitation(event.requestId, { action: 'accept', content: { stray: 'x' } });
    });
    await agent.run('go');
    expect(urls).toEqual(['https://example.com/login']);
    expect(results).toEqual([JSON.stringify({ action: 'accept', content: {} })]);
  });
});

const SAMPLING: SamplingRequest = {
  server: 'tickets',
  messages: [
    { role: 'user', text: 'Summarise the login bug' },
    { role: 'assistant', text: 'Which part?' },
    { role: 'user', text: 'All of it' },
  ],
  systemPrompt: 'You summarise tickets.',
  maxTokens: 64,
  temperature: 0.2,
};

describe('sampling through the agent', () => {
  it('runs the completion on the agent’s provider with the request’s messages, system prompt and maxTokens', async () => {
    const { agent, provider, results } = agentAsking('sample', SAMPLING, {}, [
      { text: 'The login bug is a typo.', finishReason: 'stop' },
    ]);
    await agent.run('go');
    const sampled = provider.requests[1];
    expect(sampled?.systemPrompt).toBe('You summarise tickets.');
    expect(sampled?.tools).toEqual([]);
    expect(sampled?.settings).toEqual({ maxTokens: 64, temperature: 0.2 });
    expect(sampled?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Summarise the login bug' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Which part?' }] },
      { role: 'user', content: [{ type: 'text', text: 'All of it' }] },
    ]);
    expect(results.map((text) => JSON.parse(text))).toEqual([
      { text: 'The login bug is a typo.', model: provider.capabilities.modelId, stopReason: 'endTurn' },
    ]);
  });

  it('runs on the provider the app picks from the model preferences', async () => {
    const small = new ScriptedProvider([{ text: 'short', finishReason: 'length' }], {
      capabilities: { modelId: 'small-model' },
    });
    const seen: SamplingRequest[] = [];
    const { agent, results } = agentAsking(
      'sample',
      { ...SAMPLING, modelPreferences: { hints: ['small'], speedPriority: 1 } },
      {
        // A promise too: an app may have to build the provider it picks.
        samplingProvider: async (request) => {
          seen.push(request);
          return request.modelPreferences?.hints?.includes('small') ? small : undefined;
        },
      },
    );
    await agent.run('go');
    expect(seen.map((request) => request.modelPreferences)).toEqual([{ hints: ['small'], speedPriority: 1 }]);
    expect(results.map((text) => JSON.parse(text))).toEqual([
      { text: 'short', model: 'small-model', stopReason: 'maxTokens' },
    ]);
  });

  it('asks for approval of its own kind under the approval policy, and runs once allowed', async () => {
    const { agent, results } = agentAsking('sample', SAMPLING, { approval: 'auto' }, [{ text: 'ok' }]);
    const asked: AgentEventMap['approval-requested'][] = [];
    agent.on('approval-requested', (event) => {
      asked.push(event);
      agent.answerApproval(event.requestId, { decision: 'allow-once' });
    });
    await agent.run('go');
    // The tool itself is asked about first (it declares nothing), then its sampling request.
    expect(asked.map((event) => [event.kind, event.reason])).toEqual([
      [undefined, 'ask reaches outside the workspace'],
      ['sampling', 'MCP server tickets asks the model for a completion'],
    ]);
    const { signal: _signal, ...shown } = SAMPLING;
    expect(asked[1]?.sampling).toEqual(shown);
    expect(JSON.parse(results[0] ?? '{}')).toMatchObject({ text: 'ok' });
  });

  it('rejects with sampling_declined when the user refuses, and the model is not called', async () => {
    // The rule allows the tool's calls, not its sampling requests (those match `sampling:ask`).
    const { agent, provider, results } = agentAsking('sample', SAMPLING, {
      approval: { mode: 'auto', rules: [{ tool: 'ask', action: 'allow' }] },
    });
    agent.on('approval-requested', (event) => agent.answerApproval(event.requestId, { decision: 'deny' }));
    const failures: string[] = [];
    const tool = agent.tools.get('ask')?.tool;
    agent.tools.unregister('ask');
    agent.registerTool({
      ...(tool as NonNullable<typeof tool>),
      execute: async (_args, context) => {
        try {
          return await context.sample?.(SAMPLING);
        } catch (error) {
          failures.push(`${(error as { code?: string }).code}: ${(error as Error).message}`);
          throw error;
        }
      },
    });
    await agent.run('go');
    expect(failures).toEqual([
      'sampling_declined: Not run: the user declined this call. Do not try it again; ask the user or do the task another way.',
    ]);
    expect(provider.requests).toHaveLength(2);
    expect(results).toHaveLength(1);
  });

  it('is allowed by a rule for sampling:TOOL without asking', async () => {
    const { agent, results } = agentAsking(
      'sample',
      SAMPLING,
      { approval: { mode: 'ask', rules: [{ tool: '*ask', action: 'allow' }] } },
      [{ text: 'fine' }],
    );
    const asked: string[] = [];
    agent.on('approval-requested', (event) => asked.push(event.name));
    await agent.run('go');
    expect(asked).toEqual([]);
    expect(JSON.parse(results[0] ?? '{}')).toMatchObject({ text: 'fine' });
  });

  it('is refused in read-only mode without asking', async () => {
    const { agent, results } = agentAsking('sample', SAMPLING, {
      approval: { mode: 'read-only', rules: [{ tool: 'ask', action: 'allow' }] },
    });
    await agent.run('go');
    expect(results).toEqual([
      'error: Tool "ask" failed [sampling_declined]: The approval mode is read-only, so MCP server tickets may not use the model (sampling).',
    ]);
  });
});

describe('the tokens of a sampling request', () => {
  // The agent's model: a dollar per million tokens in, two out; the sampling model ten times dearer.
  const agentPricing = { inputUsdPerMillion: 1, outputUsdPerMillion: 2 };
  const samplingPricing = { inputUsdPerMillion: 10, outputUsdPerMillion: 20 };

  function spendingAgent(journal?: MemoryJournal, live = true) {
    const provider = new ScriptedProvider(
      live
        ? [
            {
              toolCalls: [{ name: 'ask', arguments: {}, id: 'call-ask' }],
              usage: { inputTokens: 100, outputTokens: 10 },
            },
            {
              toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }],
              usage: { inputTokens: 200, outputTokens: 20 },
            },
          ]
        : [],
      { capabilities: { pricing: agentPricing } },
    );
    const sampler = new ScriptedProvider(
      live ? [{ text: 'A typo.', usage: { inputTokens: 1_000, outputTokens: 50, cacheReadTokens: 400 } }] : [],
      { capabilities: { modelId: 'sampler', pricing: samplingPricing } },
    );
    const agent = new DefaultAgent(provider, {
      tools: [askingTool('sample', SAMPLING)],
      samplingProvider: () => sampler,
      sessionId: 'session-1',
      now: () => 0,
    });
    const usageEvents: AgentEventMap['usage'][] = [];
    agent.on('usage', (event) => usageEvents.push(event));
    const run = () => agent.run('go', journal ? { journal } : {});
    return { agent, provider, sampler, usageEvents, run };
  }

  it('count in the run’s usage and cost, and in the agent’s, as a usage event of the tool call', async () => {
    const { agent, usageEvents, run } = spendingAgent();
    const result = await run();
    expect(result.usage).toEqual({
      inputTokens: 1_300,
      outputTokens: 80,
      cacheReadTokens: 400,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    expect(result.metrics.modelCalls).toBe(3);
    // 300 in and 30 out at the agent's price, 600 uncached in, 400 cache reads (at the input rate) and 50 out at the sampler's.
    expect(result.metrics.costUsd).toBeCloseTo((300 * 1 + 30 * 2 + 1_000 * 10 + 50 * 20) / 1_000_000, 12);
    expect(agent.metrics.usage).toEqual(result.usage);
    expect(
      usageEvents.map((event) => [event.iteration, event.usage.inputTokens, event.total.inputTokens, event.sampling]),
    ).toEqual([
      [1, 100, 100, undefined],
      [1, 1_000, 1_100, { toolCallId: 'call-ask', name: 'ask', server: 'tickets' }],
      [2, 200, 1_300, undefined],
    ]);
    // The completion is not part of the conversation: the context stays as the agent's own call left it.
    expect(usageEvents[1]?.context).toEqual(usageEvents[0]?.context);
    expect(usageEvents[1]?.finishReason).toBe('stop');
  });

  it('count also when the completion failed after the provider reported them', async () => {
    const sampler = new ScriptedProvider([
      {
        text: 'Half an ans',
        chunks: [{ type: 'usage', usage: { inputTokens: 70, outputTokens: 3 } }],
        error: new ProviderError('overloaded', { code: 'overloaded', provider: 'scripted' }),
      },
    ]);
    const { agent } = agentAsking('sample', SAMPLING, { samplingProvider: () => sampler });
    const sampled: AgentEventMap['usage'][] = [];
    agent.on('usage', (event) => {
      if (event.sampling) sampled.push(event);
    });
    const result = await agent.run('go');
    expect(sampled.map((event) => [event.usage.inputTokens, event.usage.outputTokens, event.finishReason])).toEqual([
      [70, 3, 'other'],
    ]);
    // Two calls of the agent's model at the scripted provider's default of 10 in, 5 out, and the failed one.
    expect(result.usage.inputTokens).toBe(90);
    expect(result.usage.outputTokens).toBe(13);
  });

  it('count once when the run is replayed from its journal, with the same usage events', async () => {
    const firstJournal = new MemoryJournal({ now: () => 1_000 });
    const first = spendingAgent(firstJournal);
    const recorded = await first.run();

    // Another worker replays the whole run: neither model is called, the tool call's record brings the tokens.
    const replay = spendingAgent(new MemoryJournal({ records: firstJournal.records }), false);
    const replayed = await replay.run();
    expect(replay.provider.requests).toHaveLength(0);
    expect(replay.sampler.requests).toHaveLength(0);
    expect(replayed.usage).toEqual(recorded.usage);
    expect(replayed.usage.inputTokens).toBe(1_300);
    expect(replayed.metrics).toEqual(recorded.metrics);
    expect(replay.usageEvents).toEqual(first.usageEvents);
  });
});
