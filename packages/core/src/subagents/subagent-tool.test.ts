import type { ModelRequest } from '@agentloop/spec';
import { CancelledError, emptyUsage, messageText } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import type { ApprovalAnswer } from '../approvals/index.js';
import type { AgentEvent, AgentEventMap } from '../events/index.js';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';
import type { ScriptStep } from '../testing/index.js';
import { ScriptedProvider } from '../testing/index.js';
import { MetricsTotals } from '../tokens/metrics-totals.js';
import { subagentParent } from './subagent-parent.js';
import type { SubagentAgent } from './subagent-tool.js';
import { subagentTool } from './subagent-tool.js';

type Wrapped = AgentEventMap['subagent-event'];

/** A child agent on its own scripted provider, and the tool the parent calls it by. */
function childAgent(steps: ScriptStep[], options: ConstructorParameters<typeof DefaultAgent>[1] = {}) {
  const provider = new ScriptedProvider(steps);
  const agent = new DefaultAgent(provider, { createId: () => 'child-run', tools: [echoTool], ...options });
  return { agent, provider };
}

const childCall = (task: string, id: string) => ({ name: 'researcher', id, arguments: { task } });
const callChild = (task: string, id = 'c1') => ({ toolCalls: [childCall(task, id)] });

const wrapped = (events: AgentEvent[]): Wrapped[] =>
  events.filter((event): event is Wrapped => event.type === 'subagent-event');

const toolResultOf = (events: AgentEvent[], toolCallId: string) =>
  events.find(
    (event): event is AgentEventMap['tool-result'] | AgentEventMap['tool-result-error'] =>
      (event.type === 'tool-result' || event.type === 'tool-result-error') && event.toolCallId === toolCallId,
  );

/** The text of a request's last user message: a child's task, or the answer it got. */
const lastUserText = (request: ModelRequest) => {
  const users = request.messages.filter((message) => message.role === 'user');
  return messageText(users[users.length - 1] ?? { role: 'user', content: [] });
};

describe('agent.asTool', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("wraps the child's events in subagent-event with the call's path, and its result is the tool's", async () => {
    const child = childAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, complete('found it')]);
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('look it up'), complete('parent done')], { tools: [tool] });

    const result = await agent.run('go');

    expect(result.exit).toBe('task_completion');
    expect(toolResultOf(events, 'c1')).toMatchObject({ type: 'tool-result', content: 'found it' });
    const nested = wrapped(events);
    expect(nested.map((event) => event.event.type)).toContain('loop-end');
    expect(nested.every((event) => event.path.length === 1)).toBe(true);
    expect(nested[0]?.path).toEqual([{ toolName: 'researcher', toolCallId: 'c1' }]);
    expect(nested.find((event) => event.event.type === 'tool-result')?.event).toMatchObject({
      name: 'echo',
      content: 'echo: hi',
    });
    // Only the parent's own loop-end is a loop-end at the parent.
    expect(events.filter((event) => event.type === 'loop-end')).toHaveLength(1);
  });

  it("runs only a sub-agent's calls with a link to the run: other tools' calls enter no async context", async () => {
    // On Node 20 an AsyncLocalStorage entered once makes every later promise of the process pay a hook.
    const seen: Record<string, boolean> = {};
    const plain = defineTool({
      name: 'plain',
      description: 'Says whether it runs linked to a run.',
      parameters: z.object({}),
      execute: async () => {
        seen.plain = subagentParent() !== undefined;
        return 'ok';
      },
    });
    const probe = defineTool({
      name: 'probe',
      description: 'Says whether the sub-agent runs linked to its caller.',
      parameters: z.object({}),
      execute: async () => {
        seen.child = subagentParent() !== undefined;
        return 'ok';
      },
    });
    const child = childAgent([{ toolCalls: [{ name: 'probe', arguments: {} }] }, complete('found it')], {
      tools: [probe],
    });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent } = scriptedAgent(
      [{ toolCalls: [{ name: 'plain', id: 'p1', arguments: {} }] }, callChild('look it up'), complete('done')],
      { tools: [plain, tool] },
    );
    expect((await agent.run('go')).exit).toBe('task_completion');
    expect(seen).toEqual({ plain: false, child: true });
  });

  it("does not end the parent's stream at the child's loop-end", async () => {
    const child = childAgent([complete('child result')]);
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent } = scriptedAgent([callChild('task'), complete('parent done')], { tools: [tool] });

    const seen: AgentEvent[] = [];
    for await (const event of agent.stream('go')) seen.push(event);

    const last = seen[seen.length - 1];
    expect(last?.type).toBe('loop-end');
    expect(last?.type === 'loop-end' && last.result.exit).toBe('task_completion');
    expect(last?.type === 'loop-end' && last.result.payload).toEqual({ result: 'parent done' });
    expect(seen.some((event) => event.type === 'subagent-event' && event.event.type === 'loop-end')).toBe(true);
  });

  it('nests a grandchild one step deeper in the path', async () => {
    const grandchild = childAgent([complete('deep result')]);
    const child = childAgent([
      { toolCalls: [{ name: 'digger', id: 'g1', arguments: { task: 'dig' } }] },
      complete('child result'),
    ]);
    child.agent.registerTool(grandchild.agent.asTool({ name: 'digger', description: 'Digs.' }));
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });

    await agent.run('go');

    const deep = wrapped(events).find((event) => event.event.type === 'task-complete' && event.path.length === 2);
    expect(deep?.path).toEqual([
      { toolName: 'researcher', toolCallId: 'c1' },
      { toolName: 'digger', toolCallId: 'g1' },
    ]);
    expect(deep?.event).toMatchObject({ result: 'deep result' });
    expect(wrapped(events).some((event) => event.event.type === 'subagent-event')).toBe(false);
  });

  it("adds the child's usage and model calls to the parent run's metrics", async () => {
    const child = childAgent([{ ...complete('done'), usage: { inputTokens: 300, outputTokens: 30 } }]);
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent } = scriptedAgent(
      [
        { ...callChild('task'), usage: { inputTokens: 1000, outputTokens: 100 } },
        { ...complete('parent done'), usage: { inputTokens: 2000, outputTokens: 200 } },
      ],
      { tools: [tool] },
    );

    const result = await agent.run('go');

    expect(result.usage.inputTokens).toBe(3300);
    expect(result.usage.outputTokens).toBe(330);
    expect(result.metrics.modelCalls).toBe(3);
    expect(agent.metrics.usage.inputTokens).toBe(3300);
  });

  it("adds the child's cost to the parent's, and leaves the cost unknown when the child's model has no price", async () => {
    const pricing = { inputUsdPerMillion: 3, outputUsdPerMillion: 15 };
    const pricedChild = new DefaultAgent(
      new ScriptedProvider([{ ...complete('done'), usage: { inputTokens: 1000, outputTokens: 100 } }], {
        capabilities: { pricing },
      }),
    );
    const parentSteps = () => [
      { ...callChild('task'), usage: { inputTokens: 2000, outputTokens: 200 } },
      { ...complete('parent done'), usage: { inputTokens: 3000, outputTokens: 300 } },
    ];
    const priced = new DefaultAgent(new ScriptedProvider(parentSteps(), { capabilities: { pricing } }), {
      tools: [pricedChild.asTool({ name: 'researcher', description: 'Researches.' })],
    });
    const result = await priced.run('go');
    expect(result.metrics.costUsd).toBeCloseTo((6000 * 3 + 600 * 15) / 1e6, 12);

    const unpricedChild = childAgent([{ ...complete('done'), usage: { inputTokens: 1000, outputTokens: 100 } }]);
    const mixed = new DefaultAgent(new ScriptedProvider(parentSteps(), { capabilities: { pricing } }), {
      tools: [unpricedChild.agent.asTool({ name: 'researcher', description: 'Researches.' })],
    });
    expect((await mixed.run('go')).metrics).not.toHaveProperty('costUsd');
  });

  it('runs two calls at once, each in a fresh conversation, with their events tagged by call', async () => {
    let waiting: (() => void)[] = [];
    // Each child's first call waits here until both children reached it: only calls running at once pass.
    const barrier = defineTool({
      name: 'barrier',
      description: 'Waits for the other child.',
      parameters: z.object({}),
      execute: () =>
        new Promise<string>((resolve) => {
          waiting.push(() => resolve('passed'));
          if (waiting.length === 2) {
            for (const release of waiting) release();
            waiting = [];
          }
        }),
    });
    const script = (request: ModelRequest) =>
      request.messages.some((message) => message.role === 'tool')
        ? complete(`done: ${lastUserText(request)}`)
        : { toolCalls: [{ name: 'barrier', arguments: {} }] };
    const child = childAgent([script, script, script, script], { tools: [barrier] });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [childCall('alpha', 'a'), childCall('beta', 'b')] }, complete('both done')],
      { tools: [tool] },
    );

    const result = await agent.run('go');

    expect(result.exit).toBe('task_completion');
    expect(toolResultOf(events, 'a')).toMatchObject({ type: 'tool-result', content: 'done: alpha' });
    expect(toolResultOf(events, 'b')).toMatchObject({ type: 'tool-result', content: 'done: beta' });
    const ends = wrapped(events).filter((event) => event.event.type === 'loop-end');
    expect(ends.map((event) => event.path[0]?.toolCallId).sort()).toEqual(['a', 'b']);
    // A fresh conversation per call: the child agent's own memory saw neither task.
    expect(child.agent.memory.messages()).toEqual([]);
  });

  it("cancels the child's running tool when the parent is cancelled", async () => {
    let childSignal: AbortSignal | undefined;
    let started = () => {};
    const slow = defineTool({
      name: 'slow',
      description: 'Waits for its signal.',
      parameters: z.object({}),
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          childSignal = context.signal;
          context.signal.addEventListener('abort', () => reject(new Error('stopped')));
          started();
        }),
    });
    const child = childAgent([{ toolCalls: [{ name: 'slow', arguments: {} }] }], { tools: [slow] });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task')], { tools: [tool] });
    started = () => agent.cancel('user stop');

    const result = await agent.run('go');

    expect(result.exit).toBe('cancelled');
    expect(childSignal?.aborted).toBe(true);
    expect(toolResultOf(events, 'c1')).toMatchObject({ type: 'tool-result-error', code: 'cancelled' });
    // The parent's loop-end stays its last event: the child's own ending, which comes later, is not passed on.
    expect(events.at(-1)?.type).toBe('loop-end');
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.at(-1)?.type).toBe('loop-end');
  });

  it("stops the child at the tool's timeoutMs and answers the call with a timeout", async () => {
    vi.useFakeTimers();
    let childSignal: AbortSignal | undefined;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = defineTool({
      name: 'slow',
      description: 'Waits for its signal.',
      parameters: z.object({}),
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          childSignal = context.signal;
          context.signal.addEventListener('abort', () => reject(new Error('stopped')));
          started();
        }),
    });
    const child = childAgent([{ toolCalls: [{ name: 'slow', arguments: {} }] }], { tools: [slow] });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.', timeoutMs: 5_000 });
    const { agent, events } = scriptedAgent([callChild('task'), complete('went on')], { tools: [tool] });

    const run = agent.run('go');
    await running;
    await vi.advanceTimersByTimeAsync(5_000);
    const result = await run;

    expect(childSignal?.aborted).toBe(true);
    expect(toolResultOf(events, 'c1')).toMatchObject({ type: 'tool-result-error', code: 'timeout' });
    expect(result.payload).toEqual({ result: 'went on' });
  });

  it("with an output schema, gives the child's typed result as the tool's value", async () => {
    const child = childAgent([
      { toolCalls: [{ name: 'task_completion', arguments: { result: { city: 'Oslo', degrees: 4 } } }] },
    ]);
    const tool = child.agent.asTool({
      name: 'researcher',
      description: 'Researches.',
      output: z.object({ city: z.string(), degrees: z.number() }),
    });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });

    await agent.run('go');

    expect(toolResultOf(events, 'c1')).toMatchObject({
      type: 'tool-result',
      value: { city: 'Oslo', degrees: 4 },
      content: '{"city":"Oslo","degrees":4}',
    });
  });

  it("passes nothing on from a child still winding down after its call ended, so the parent's loop-end stays last", async () => {
    let windDown: () => void = () => {};
    let emit: (event: AgentEvent) => void = () => {};
    let childEnded: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      childEnded = resolve;
    });
    const slowChild: SubagentAgent = {
      answerApproval: () => {},
      answerQuestion: () => {},
      answerElicitation: () => {},
      on: () => undefined,
      onAny: (listener) => {
        emit = listener;
        return () => {};
      },
      // A child whose run takes a while to end after its signal aborts (say, a session store saving).
      run: (_input, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            windDown = () => {
              const result = {
                exit: 'cancelled' as const,
                payload: undefined,
                error: new CancelledError(),
                usage: emptyUsage(),
                iterations: 0,
                messages: [],
                durationMs: 0,
                metrics: new MetricsTotals().runMetrics(),
              };
              emit({ type: 'loop-end', runId: 'slow', result });
              resolve(result);
              childEnded();
            };
          });
          emit({ type: 'loop-start', runId: 'slow', input: 'task' });
        }),
    };
    const tool = subagentTool({ name: 'researcher', description: 'Researches.', createAgent: () => slowChild });
    const { agent, events } = scriptedAgent([callChild('task')], { tools: [tool] });
    agent.on('subagent-event', ({ event }) => {
      if (event.type === 'loop-start') agent.cancel();
    });

    const result = await agent.run('go');
    windDown();
    await ended;

    expect(result.exit).toBe('cancelled');
    expect(events.at(-1)?.type).toBe('loop-end');
    expect(wrapped(events).map((event) => event.event.type)).toEqual(['loop-start']);
  });

  it('tells the parent when the child hit its iteration limit, and the parent goes on', async () => {
    const echo = { toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] };
    const child = childAgent([echo, echo], { maxIterations: 2, onMaxIterations: 'stop' });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('went on')], { tools: [tool] });

    const result = await agent.run('go');

    const toolResult = toolResultOf(events, 'c1');
    expect(toolResult?.type).toBe('tool-result-error');
    expect(toolResult?.content).toContain('The researcher agent reached its limit of 2 model calls');
    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: 'went on' });
  });

  it("with questions: 'fail', fails the call with the child's question", async () => {
    const child = childAgent([{ toolCalls: [{ name: 'ask_question', arguments: { question: 'Which city?' } }] }]);
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.', questions: 'fail' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('asked the user')], { tools: [tool] });
    agent.on('subagent-question', () => {
      throw new Error('not asked in fail mode');
    });

    const result = await agent.run('go');

    const toolResult = toolResultOf(events, 'c1');
    expect(toolResult?.type).toBe('tool-result-error');
    expect(toolResult?.content).toContain('needs an answer before it can go on: "Which city?"');
    expect(events.some((event) => event.type === 'subagent-question')).toBe(false);
    expect(result.exit).toBe('task_completion');
  });

  it("by default asks the parent's user the child's question, and the child goes on with the answer", async () => {
    const child = childAgent([
      { toolCalls: [{ name: 'ask_question', arguments: { question: 'Which city?', suggestions: ['Oslo'] } }] },
      (request) => complete(`weather for ${lastUserText(request)}`),
    ]);
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });
    agent.on('subagent-question', (event) => agent.answerQuestion(event.requestId, 'Bergen'));

    await agent.run('go');

    const question = events.find((event) => event.type === 'subagent-question');
    expect(question).toMatchObject({
      question: 'Which city?',
      suggestions: ['Oslo'],
      path: [{ toolName: 'researcher', toolCallId: 'c1' }],
    });
    expect(toolResultOf(events, 'c1')).toMatchObject({ type: 'tool-result', content: 'weather for Bergen' });
  });

  it("passes a grandchild's question up with the whole path, and its answer back down", async () => {
    const grandchild = childAgent([
      { toolCalls: [{ name: 'ask_question', arguments: { question: 'Which year?' } }] },
      (request) => complete(`data for ${lastUserText(request)}`),
    ]);
    const child = childAgent([
      { toolCalls: [{ name: 'digger', id: 'g1', arguments: { task: 'dig' } }] },
      (request) => {
        const result = request.messages.at(-1)?.content[0] as { content?: string } | undefined;
        return complete(`child got ${result?.content}`);
      },
    ]);
    child.agent.registerTool(grandchild.agent.asTool({ name: 'digger', description: 'Digs.' }));
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });
    agent.on('subagent-question', (event) => agent.answerQuestion(event.requestId, '1999'));

    await agent.run('go');

    const question = events.find((event) => event.type === 'subagent-question');
    expect(question).toMatchObject({
      question: 'Which year?',
      requestId: 'c1/g1/question-1',
      path: [
        { toolName: 'researcher', toolCallId: 'c1' },
        { toolName: 'digger', toolCallId: 'g1' },
      ],
    });
    expect(toolResultOf(events, 'c1')).toMatchObject({ type: 'tool-result', content: 'child got data for 1999' });
  });

  it('fails the call with the question when nothing at the parent answers questions', async () => {
    const child = childAgent([{ toolCalls: [{ name: 'ask_question', arguments: { question: 'Which city?' } }] }]);
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });

    await agent.run('go');

    expect(toolResultOf(events, 'c1')?.content).toContain('"Which city?"');
  });

  it("routes the parent's answer to a child's approval request down to the child", async () => {
    const ran: string[] = [];
    const write = defineTool({
      name: 'write_note',
      description: 'Writes a note.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran.push(text);
        return 'written';
      },
    });
    const child = childAgent(
      [{ toolCalls: [{ name: 'write_note', arguments: { text: 'hello' } }] }, complete('noted')],
      { tools: [write], approval: 'ask' },
    );
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });
    agent.on('approval-requested', () => {
      throw new Error('a child request is not the parent’s own');
    });
    agent.on('subagent-event', ({ event }) => {
      if (event.type === 'approval-requested') agent.answerApproval(event.requestId, { decision: 'allow-once' });
    });

    await agent.run('go');

    expect(ran).toEqual(['hello']);
    const request = wrapped(events).find((event) => event.event.type === 'approval-requested')?.event;
    expect(request?.type === 'approval-requested' && request.requestId).toBe('c1/approval-child-run-1');
    expect(toolResultOf(events, 'c1')).toMatchObject({ type: 'tool-result', content: 'noted' });
  });

  it("refuses a child's approval request at once when nothing at the parent answers approvals", async () => {
    const write = defineTool({
      name: 'write_note',
      description: 'Writes a note.',
      parameters: z.object({ text: z.string() }),
      execute: () => 'written',
    });
    const child = childAgent([{ toolCalls: [{ name: 'write_note', arguments: { text: 'hello' } }] }], {
      tools: [write],
      approval: 'ask',
    });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });

    await agent.run('go');

    const toolResult = toolResultOf(events, 'c1');
    expect(toolResult?.type).toBe('tool-result-error');
    expect(toolResult?.content).toContain('nothing answers approval requests');
  });

  it("routes the parent's answer to a child's elicitation down to the child's tool", async () => {
    const answers: string[] = [];
    const ask = defineTool({
      name: 'ask_form',
      description: 'Asks the user.',
      parameters: z.object({}),
      execute: async (_args, context) => {
        const answer = await context.elicit?.({
          mode: 'form',
          message: 'Which city?',
          schema: { type: 'object', properties: { city: { type: 'string' } } },
        });
        answers.push(JSON.stringify(answer));
        return 'asked';
      },
    });
    const child = childAgent([{ toolCalls: [{ name: 'ask_form', arguments: {} }] }, complete('done')], {
      tools: [ask],
    });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });
    agent.on('elicitation-requested', () => {
      throw new Error('a child request is not the parent’s own');
    });
    agent.on('subagent-event', ({ event }) => {
      if (event.type === 'elicitation-requested') {
        agent.answerElicitation(event.requestId, { action: 'accept', content: { city: 'Oslo' } });
      }
    });

    await agent.run('go');

    expect(answers).toEqual([JSON.stringify({ action: 'accept', content: { city: 'Oslo' } })]);
    const request = wrapped(events).find((event) => event.event.type === 'elicitation-requested')?.event;
    expect(request?.type === 'elicitation-requested' && request.requestId).toBe('c1/elicitation-child-run-1');
  });

  it("keeps a child's elicitation answerable after a refused answer, and a good one reaches the tool", async () => {
    const answers: string[] = [];
    const ask = defineTool({
      name: 'ask_form',
      description: 'Asks the user.',
      parameters: z.object({}),
      execute: async (_args, context) => {
        const answer = await context.elicit?.({
          mode: 'form',
          message: 'Which city?',
          schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        });
        answers.push(JSON.stringify(answer));
        return 'asked';
      },
    });
    const child = childAgent([{ toolCalls: [{ name: 'ask_form', arguments: {} }] }, complete('done')], {
      tools: [ask],
    });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });
    const refusals: unknown[] = [];
    // A child may ask only when the parent answers requests of that kind itself.
    agent.on('elicitation-requested', () => {});
    agent.on('subagent-event', ({ event }) => {
      if (event.type !== 'elicitation-requested') return;
      for (const city of ['', 'Oslo']) {
        try {
          agent.answerElicitation(event.requestId, { action: 'accept', content: { city } });
        } catch (error) {
          refusals.push(error);
        }
      }
      // A request lost with the refused answer would wait forever: end the run rather than the test's time.
      if (refusals.length > 1) agent.cancel();
    });

    await agent.run('go');

    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      code: 'invalid_usage',
      message:
        'The elicitation answer leaves required field "city" empty: fill it in, or answer with decline or cancel.',
      fields: ['city'],
    });
    expect(answers).toEqual([JSON.stringify({ action: 'accept', content: { city: 'Oslo' } })]);
  });

  it("keeps a child's approval request answerable after a refused answer, and a good one runs the call", async () => {
    const ran: string[] = [];
    const write = defineTool({
      name: 'write_note',
      description: 'Writes a note.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran.push(text);
        return 'written';
      },
    });
    const child = childAgent(
      [{ toolCalls: [{ name: 'write_note', arguments: { text: 'hello' } }] }, complete('noted')],
      { tools: [write], approval: 'ask' },
    );
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent, events } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });
    const refusals: unknown[] = [];
    agent.on('approval-requested', () => {});
    agent.on('subagent-event', ({ event }) => {
      if (event.type !== 'approval-requested') return;
      for (const decision of ['maybe', 'allow-once']) {
        try {
          agent.answerApproval(event.requestId, { decision } as ApprovalAnswer);
        } catch (error) {
          refusals.push(error);
        }
      }
      if (refusals.length > 1) agent.cancel();
    });

    await agent.run('go');

    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      code: 'invalid_usage',
      message: 'An approval answer\'s decision must be "allow-once", "allow-session", "deny", got "maybe".',
    });
    expect(ran).toEqual(['hello']);
    expect(toolResultOf(events, 'c1')).toMatchObject({ type: 'tool-result', content: 'noted' });
  });

  it("declines a child's elicitation at once when nothing at the parent answers elicitations", async () => {
    const answers: string[] = [];
    const ask = defineTool({
      name: 'ask_form',
      description: 'Asks the user.',
      parameters: z.object({}),
      execute: async (_args, context) => {
        answers.push(
          JSON.stringify(await context.elicit?.({ mode: 'url', message: 'Sign in', url: 'https://x.test' })),
        );
        return 'asked';
      },
    });
    const child = childAgent([{ toolCalls: [{ name: 'ask_form', arguments: {} }] }, complete('done')], {
      tools: [ask],
    });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent } = scriptedAgent([callChild('task'), complete('done')], { tools: [tool] });

    await agent.run('go');

    expect(answers).toEqual([JSON.stringify({ action: 'decline' })]);
  });

  it('is a read-only call for the approval policy when the agent asks about its own calls', () => {
    const { agent } = childAgent([], { approval: 'ask' });
    expect(agent.asTool({ name: 'researcher', description: 'Researches.' }).annotations).toEqual({
      readOnly: true,
      destructive: false,
      openWorld: false,
    });
  });

  it('may do what its tools may when it has no approval policy', () => {
    const reader = defineTool({
      name: 'reader',
      description: 'Reads.',
      parameters: z.object({}),
      annotations: { readOnly: true, destructive: false, openWorld: false },
      execute: () => 'read',
    });
    const readOnly = childAgent([], { tools: [reader] }).agent.asTool({ name: 'r', description: 'Reads.' });
    expect(readOnly.annotations).toEqual({ readOnly: true, destructive: false, openWorld: false });
    // echo declares nothing: the cautious answer to each.
    const writer = childAgent([], { tools: [reader, echoTool] }).agent.asTool({ name: 'w', description: 'Echoes.' });
    expect(writer.annotations).toEqual({ readOnly: false, destructive: true, openWorld: true });
  });

  it('answerQuestion rejects an id no sub-agent waits on', () => {
    const { agent } = scriptedAgent([]);
    expect(() => agent.answerQuestion('c9/question-1', 'x')).toThrow(/No sub-agent question "c9\/question-1"/);
  });
});
