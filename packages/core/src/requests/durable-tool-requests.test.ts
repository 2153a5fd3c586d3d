import { AsyncLocalStorage } from 'node:async_hooks';
import { defineTool, type ElicitationRequest, type SamplingRequest } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import type { ApprovalOption, ApprovalRequest } from '../approvals/index.js';
import { DirectJournal } from '../journal/direct-journal.js';
import type { AwaitAnswerOptions, Journal } from '../journal/journal.js';
import { type JournalRecord, MemoryJournal, ScriptedProvider } from '../testing/index.js';

/**
 * A MemoryJournal that keeps the Journal contract's rule as Restate does: a step does no journal operation
 * of its own. Restate cannot run a `ctx.run` inside another or await an awakeable inside one; here each
 * such operation is noted in `nested` (and still done, so that the run goes on and the test can see it).
 */
class StepCheckingJournal implements Journal {
  readonly inner: MemoryJournal;
  readonly nested: string[] = [];
  readonly #inStep = new AsyncLocalStorage<string>();

  constructor(records?: readonly JournalRecord[]) {
    this.inner = new MemoryJournal({ now: () => 1_000, ...(records ? { records } : {}) });
  }

  step<T>(name: string, run: () => Promise<T>): Promise<T> {
    this.#check(`step ${name}`);
    return this.inner.step(name, () => this.#inStep.run(name, run));
  }

  now(): Promise<number> {
    this.#check('now');
    return this.inner.now();
  }

  randomId(): string {
    this.#check('randomId');
    return this.inner.randomId();
  }

  awaitAnswer<T>(requestId: string, onRequest: () => void, options?: AwaitAnswerOptions): Promise<T> {
    this.#check(`awaitAnswer ${requestId}`);
    return this.inner.awaitAnswer(requestId, onRequest, options);
  }

  answer(requestId: string, value: unknown): boolean {
    return this.inner.answer(requestId, value);
  }

  #check(operation: string): void {
    const step = this.#inStep.getStore();
    if (step !== undefined) this.nested.push(`${operation} inside ${step}`);
  }
}

const SAMPLING: SamplingRequest = {
  server: 'tickets',
  messages: [{ role: 'user', text: 'Summarise the login bug' }],
  maxTokens: 64,
};

const FORM: ElicitationRequest = {
  mode: 'form',
  server: 'tickets',
  message: 'Which project?',
  schema: { type: 'object', properties: { project: { type: 'string' } }, required: ['project'] },
};

/** An agent whose one tool makes a request through its context; `live` false: a replay calls no model. */
function durableAgent(ask: 'elicit' | 'sample', options: { approval?: ApprovalOption; live?: boolean } = {}) {
  const live = options.live ?? true;
  const provider = new ScriptedProvider(
    live
      ? [
          { toolCalls: [{ name: 'ask', arguments: {}, id: 'call-ask' }] },
          { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
        ]
      : [],
  );
  const sampler = new ScriptedProvider(live ? [{ text: 'A typo.' }] : []);
  const tool = defineTool({
    name: 'ask',
    description: 'Asks.',
    parameters: z.object({}),
    execute: async (_args, context) => {
      try {
        const answer = ask === 'elicit' ? await context.elicit?.(FORM) : await context.sample?.(SAMPLING);
        return JSON.stringify(answer);
      } catch (error) {
        return `refused [${(error as { code?: string }).code}]: ${(error as Error).message}`;
      }
    },
  });
  const agent = new DefaultAgent(provider, {
    tools: [tool],
    samplingProvider: () => sampler,
    sessionId: 'session-1',
    now: () => 0,
    ...(options.approval === undefined ? {} : { approval: options.approval }),
  });
  const results: string[] = [];
  agent.on('tool-result', (event) => {
    if (event.name === 'ask') results.push(event.content);
  });
  return { agent, provider, sampler, results };
}

describe('a sampling request inside a durable tool call', () => {
  it("is decided inside the call's step, with no journal operation of its own; a replay neither decides nor samples again", async () => {
    const decided: string[] = [];
    const policy = {
      decide: (request: ApprovalRequest) => {
        decided.push(request.kind ?? 'tool-call');
        return { action: 'allow' as const };
      },
    };
    const journal = new StepCheckingJournal();
    const first = durableAgent('sample', { approval: policy });
    await first.agent.run('go', { journal });

    expect(journal.nested).toEqual([]);
    expect(journal.inner.ran).toEqual(['model:1', 'approval:1:call-ask', 'tool:1:call-ask', 'model:2']);
    expect(decided).toEqual(['tool-call', 'sampling']);
    expect(first.results).toEqual([
      JSON.stringify({ text: 'A typo.', model: 'scripted-model', stopReason: 'endTurn' }),
    ]);

    // Another worker replays the run: the tool call's record holds what its sampling request gave.
    decided.length = 0;
    const replay = durableAgent('sample', { approval: policy, live: false });
    await replay.agent.run('go', { journal: new StepCheckingJournal(journal.inner.records) });
    expect(decided).toEqual([]);
    expect(replay.sampler.requests).toHaveLength(0);
    expect(replay.results).toEqual(first.results);
  });

  it('is refused with sampling_approval_unsupported when the policy would ask the user: nobody is asked', async () => {
    const journal = new StepCheckingJournal();
    // The rule lets the tool's calls run; its sampling requests (`sampling:ask`) are asked about.
    const { agent, sampler, results } = durableAgent('sample', {
      approval: { mode: 'auto', rules: [{ tool: 'ask', action: 'allow' }] },
    });
    const asked: string[] = [];
    agent.on('approval-requested', (event) => {
      asked.push(event.requestId);
      agent.answerApproval(event.requestId, { decision: 'allow-once' });
    });

    const result = await agent.run('go', { journal });

    expect(result.exit).toBe('task_completion');
    expect(asked).toEqual([]);
    expect(journal.nested).toEqual([]);
    expect(sampler.requests).toHaveLength(0);
    expect(results).toEqual([
      'refused [sampling_approval_unsupported]: ask asked for a model completion (sampling) that needs the ' +
        "user's approval (MCP server tickets asks the model for a completion), but it was made inside a durable " +
        'tool call, which is one journal step and cannot wait for an answer. Allow it without asking with an ' +
        "approval rule { tool: 'sampling:ask', action: 'allow' } (or a grant of kind sampling), or run the agent " +
        'without a durable journal.',
    ]);
  });

  it('runs without asking when a grant of kind sampling covers it', async () => {
    const journal = new StepCheckingJournal();
    const { agent, sampler, results } = durableAgent('sample', {
      approval: { mode: 'auto', rules: [{ tool: 'ask', action: 'allow' }] },
    });
    agent.addApprovalGrants([{ kind: 'sampling', toolName: 'ask' }]);

    await agent.run('go', { journal });

    expect(journal.nested).toEqual([]);
    expect(sampler.requests).toHaveLength(1);
    expect(JSON.parse(results[0] ?? '{}')).toMatchObject({ text: 'A typo.' });
  });
});

describe('an elicitation inside a durable tool call', () => {
  it("is answered as part of the call's effect, with no journal record of its own; a replay does not ask again", async () => {
    const journal = new StepCheckingJournal();
    const first = durableAgent('elicit');
    first.agent.on('elicitation-requested', (event) =>
      first.agent.answerElicitation(event.requestId, { action: 'accept', content: { project: 'web' } }),
    );
    await first.agent.run('go', { journal });

    expect(journal.nested).toEqual([]);
    expect(journal.inner.records.map((record) => record.kind)).not.toContain('answer');
    expect(first.results).toEqual([JSON.stringify({ action: 'accept', content: { project: 'web' } })]);

    const replay = durableAgent('elicit', { live: false });
    const asked: string[] = [];
    replay.agent.on('elicitation-requested', (event) => asked.push(event.requestId));
    await replay.agent.run('go', { journal: new StepCheckingJournal(journal.inner.records) });
    expect(asked).toEqual([]);
    expect(replay.results).toEqual(first.results);
  });
});

describe('a sampling request under a journal that records nothing', () => {
  /** The default journal behind an app's own wrapper that only traces the steps' names: nothing durable. */
  class TracingJournal implements Journal {
    readonly traced: string[] = [];
    readonly #inner = new DirectJournal({ now: () => 0 });

    step<T>(name: string, run: () => Promise<T>): Promise<T> {
      this.traced.push(name);
      return this.#inner.step(name, run);
    }

    now(): Promise<number> {
      return this.#inner.now();
    }

    randomId(): string {
      return this.#inner.randomId();
    }

    awaitAnswer<T>(requestId: string, onRequest: () => void, options?: AwaitAnswerOptions): Promise<T> {
      return this.#inner.awaitAnswer(requestId, onRequest, options);
    }

    answer(requestId: string, value: unknown): boolean {
      return this.#inner.answer(requestId, value);
    }
  }

  it('asks the user, as the default journal does: nothing durable forbids waiting in the call', async () => {
    const { agent, sampler, results } = durableAgent('sample', {
      approval: { mode: 'auto', rules: [{ tool: 'ask', action: 'allow' }] },
    });
    const asked: string[] = [];
    agent.on('approval-requested', (event) => {
      asked.push(event.name);
      agent.answerApproval(event.requestId, { decision: 'allow-once' });
    });

    await agent.run('go', { journal: new TracingJournal() });

    expect(asked).toEqual(['ask']);
    expect(sampler.requests).toHaveLength(1);
    expect(JSON.parse(results[0] ?? '{}')).toMatchObject({ text: 'A typo.' });
  });
});
