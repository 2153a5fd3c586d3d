import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonlSessionStore } from '@agentloop/sessions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ControlServer,
  type ModelReply,
  type ModelRequestRecord,
  toolCallReply,
  toolResultsSinceInput,
} from './test-support/control-server.js';
import { type RestateServer, restateServerAvailable, startRestateServer } from './test-support/restate-server.mjs';
import { type Worker, WorkerPool } from './test-support/worker-pool.mjs';

const WORKER = fileURLToPath(new URL('./test-support/agent-worker.mjs', import.meta.url));

/** The scripted model of the 6-step run: five append_line calls, then task_completion. */
function appendFiveLines(file: string) {
  return (request: ModelRequestRecord): ModelReply => {
    const done = toolResultsSinceInput(request.messages);
    if (done < 5) return toolCallReply(`call_${done + 1}`, 'append_line', { file, line: `line ${done + 1}` });
    return toolCallReply('call_done', 'task_completion', { result: 'appended 5 lines' });
  };
}

function linesOf(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t')[0] as string);
}

describe.skipIf(!restateServerAvailable())('durableAgent on a real Restate server', () => {
  let server: RestateServer;
  let pool: WorkerPool;
  let control: ControlServer;
  let directory: string;
  let sessions = 0;
  let storeDirectory: string;
  const environment = (extra: Record<string, string> = {}) => ({
    CONTROL_URL: control.url,
    EVENT_TYPES: 'approval-requested,loop-end,tool-result',
    STORE_DIR: storeDirectory,
    ...extra,
  });
  const startWorker = (id: string, extra?: Record<string, string>): Promise<Worker> =>
    pool.startWorker(WORKER, id, environment(extra));
  const newSession = () => `session-${++sessions}`;

  async function call(
    sessionId: string,
    handler: string,
    body: unknown,
    object = 'assistant',
  ): Promise<{ status: number; body: any }> {
    const response = await fetch(`${server.ingressUrl}/${object}/${sessionId}/${handler}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  beforeAll(async () => {
    storeDirectory = mkdtempSync(join(tmpdir(), 'agentloop-durable-store-'));
    server = await startRestateServer();
    control = await ControlServer.start({ model: () => ({ chunks: [] }) });
    pool = await WorkerPool.start();
    await Promise.all([startWorker('w1'), startWorker('w2')]);
    await server.register(pool.uri);
  }, 60_000);

  afterAll(async () => {
    await pool?.close();
    await control?.close();
    await server?.stop();
    rmSync(storeDirectory, { recursive: true, force: true });
  });

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'agentloop-durable-'));
    return () => rmSync(directory, { recursive: true, force: true });
  });

  it('runs a 6-step task to its task_completion and returns the typed result', async () => {
    const file = join(directory, 'lines.txt');
    const sessionId = newSession();
    control.handlers = { model: appendFiveLines(file) };
    const { status, body } = await call(sessionId, 'run', 'Append five lines.');
    expect(status).toBe(200);
    expect(body).toMatchObject({ exit: 'task_completion', payload: { result: 'appended 5 lines' }, iterations: 6 });
    expect(linesOf(file)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    const state = await call(sessionId, 'state', null);
    expect(state.body.messages).toHaveLength(body.messages.length);
    expect(state.body.running).toBe(false);
  });

  /** Kills the worker that sent `request`, then leaves the request unanswered: it died with it. */
  async function killSender(worker: string): Promise<Worker> {
    const sender = pool.workers.find((candidate) => candidate.id === worker);
    if (!sender) throw new Error(`worker ${worker} is not in the pool`);
    await sender.kill();
    return sender;
  }

  /** Keeps two workers in the pool, whatever a test killed. */
  let spare = 0;
  async function refillPool(count = 2): Promise<void> {
    while (pool.workers.length < count) await startWorker(`spare-${++spare}`);
  }

  describe('a worker SIGKILLed in the middle of a run', () => {
    beforeEach(() => refillPool());

    it('after the third tool call: the run completes on the other worker, each line appended once, no journaled model call repeated', async () => {
      const file = join(directory, 'lines.txt');
      const sessionId = newSession();
      const script = appendFiveLines(file);
      let killed: Worker | undefined;
      let inFlight = '';
      control.handlers = {
        model: async (request) => {
          if (request.sessionId === sessionId && toolResultsSinceInput(request.messages) === 3 && !killed) {
            inFlight = request.key;
            killed = await killSender(request.worker);
            return 'hang';
          }
          return script(request);
        },
      };
      const { status, body } = await call(sessionId, 'run', 'Append five lines.');
      expect(status).toBe(200);
      expect(body).toMatchObject({ exit: 'task_completion', payload: { result: 'appended 5 lines' } });
      expect(linesOf(file)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
      // The model call in flight when the worker died is the one step asked again.
      expect(control.repeatedSteps((id) => id === sessionId, [inFlight])).toEqual([]);
      const finishers = control.modelRequests.filter((request) => request.sessionId === sessionId).slice(-2);
      expect(finishers.every((request) => request.worker !== killed?.id)).toBe(true);
      // The replay on the other worker delivered the first three tool results again, under the same ids.
      const results = control.events.filter(
        (record) => record.sessionId === sessionId && record.event.type === 'tool-result',
      );
      const byId = new Map<string, unknown[]>();
      for (const { event } of results)
        byId.set(event.eventId as string, [...(byId.get(event.eventId as string) ?? []), event]);
      expect(results.length).toBeGreaterThan(byId.size);
      for (const copies of byId.values()) for (const copy of copies) expect(copy).toEqual(copies[0]);
      expect([...byId.values()].map((copies) => (copies[0] as { name: string }).name)).toEqual([
        ...Array(5).fill('append_line'),
        'task_completion',
      ]);
    });

    it('during a model call: the run completes on the other worker and asks the model once more for that step only', async () => {
      const file = join(directory, 'lines.txt');
      const sessionId = newSession();
      const script = appendFiveLines(file);
      let inFlight = '';
      control.handlers = {
        model: async (request) => {
          if (request.sessionId === sessionId && toolResultsSinceInput(request.messages) === 1 && inFlight === '') {
            inFlight = request.key;
            await killSender(request.worker);
            return 'hang';
          }
          return script(request);
        },
      };
      const { body } = await call(sessionId, 'run', 'Append five lines.');
      expect(body).toMatchObject({ exit: 'task_completion' });
      expect(linesOf(file)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
      expect(control.modelRequests.filter((request) => request.key === inFlight)).toHaveLength(2);
      expect(control.repeatedSteps((id) => id === sessionId, [inFlight])).toEqual([]);
    });

    it('during a tool call: the call runs again on the other worker with the same idempotency key, and the file still has 5 lines', async () => {
      const file = join(directory, 'lines.txt');
      const sessionId = newSession();
      control.handlers = {
        model: appendFiveLines(file),
        tool: async (call) => {
          const third = control.toolCalls.filter(
            (record) => record.sessionId === sessionId && record.arguments.line === 'line 3',
          );
          // The tool appended its line and reported; the worker dies before the step is recorded.
          if (call.sessionId === sessionId && call.arguments.line === 'line 3' && third.length === 1) {
            await killSender(call.worker);
          }
        },
      };
      const { body } = await call(sessionId, 'run', 'Append five lines.');
      expect(body).toMatchObject({ exit: 'task_completion' });
      const thirdCalls = control.toolCalls.filter(
        (record) => record.sessionId === sessionId && record.arguments.line === 'line 3',
      );
      expect(thirdCalls).toHaveLength(2);
      expect(thirdCalls[0]?.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
      expect(thirdCalls[1]?.idempotencyKey).toBe(thirdCalls[0]?.idempotencyKey);
      expect(thirdCalls[1]?.worker).not.toBe(thirdCalls[0]?.worker);
      expect(linesOf(file)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
      expect(control.repeatedSteps((id) => id === sessionId)).toEqual([]);
    });
  });

  describe('answers given while no worker runs', () => {
    beforeEach(() => refillPool());

    async function killAllWorkers(): Promise<void> {
      await Promise.all([...pool.workers].map((worker) => worker.kill()));
    }

    async function send(sessionId: string, handler: string, body: unknown): Promise<number> {
      const response = await fetch(`${server.ingressUrl}/assistant/${sessionId}/${handler}/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.text();
      return response.status;
    }

    it('an approval: the run suspended on it goes on with a worker started afterwards', async () => {
      const file = join(directory, 'approved.txt');
      const sessionId = `ask-${newSession()}`;
      control.handlers = {
        model: (request) =>
          toolResultsSinceInput(request.messages) === 0
            ? toolCallReply('call_1', 'append_line', { file, line: 'approved line' })
            : toolCallReply('call_done', 'task_completion', { result: 'done' }),
      };
      const run = call(sessionId, 'run', 'Append a line, with approval.');
      await control.waitFor(() =>
        control.events.find((record) => record.sessionId === sessionId && record.event.type === 'approval-requested'),
      );
      // The request is in the object's state once the run has written it; `state` reads it from there.
      let pending: any[] = [];
      for (let attempt = 0; attempt < 100 && pending.length === 0; attempt++) {
        pending = (await call(sessionId, 'state', null)).body.pendingApprovals;
      }
      expect(pending).toMatchObject([{ name: 'append_line', arguments: { file, line: 'approved line' } }]);
      await killAllWorkers();
      expect(await send(sessionId, 'answer', { requestId: pending[0].requestId, decision: 'allow-once' })).toBe(202);
      await startWorker(`after-approval-${sessionId}`);
      const { body } = await run;
      expect(body).toMatchObject({ exit: 'task_completion', payload: { result: 'done' } });
      expect(linesOf(file)).toEqual(['approved line']);
    });

    it('a question: the answer sent with no worker becomes the next run, which a worker started afterwards finishes', async () => {
      const file = join(directory, 'answered.txt');
      const sessionId = newSession();
      control.handlers = {
        model: (request) => {
          const last = request.messages.at(-1);
          const answered = request.messages.some(
            (message) => message.role === 'user' && JSON.stringify(message.content).includes('call it answered.txt'),
          );
          if (!answered) return toolCallReply('call_q', 'ask_question', { question: 'Which file?' });
          if (last?.role === 'user') return toolCallReply('call_1', 'append_line', { file, line: 'after the answer' });
          return toolCallReply('call_done', 'task_completion', { result: 'written' });
        },
      };
      const first = await call(sessionId, 'run', 'Write a line to a file.');
      expect(first.body).toMatchObject({ exit: 'ask_question', payload: { question: 'Which file?' } });
      const { pendingQuestion } = (await call(sessionId, 'state', null)).body;
      expect(pendingQuestion).toMatchObject({ question: 'Which file?' });
      await killAllWorkers();
      expect(
        await send(sessionId, 'answer', { requestId: pendingQuestion.requestId, answer: 'call it answered.txt' }),
      ).toBe(202);
      await startWorker(`after-question-${sessionId}`);
      const end = await control.waitFor(() =>
        control.events.find(
          (record) =>
            record.sessionId === sessionId &&
            record.event.type === 'loop-end' &&
            (record.event as any).result.exit === 'task_completion',
        ),
      );
      expect((end.event as any).result.payload).toEqual({ result: 'written' });
      expect(linesOf(file)).toEqual(['after the answer']);
      // The run writes its end (the question answered) after loop-end: wait for it to finish.
      let state = (await call(sessionId, 'state', null)).body;
      for (let attempt = 0; attempt < 200 && state.running; attempt++)
        state = (await call(sessionId, 'state', null)).body;
      expect(state.running).toBe(false);
      expect(state.pendingQuestion).toBeUndefined();
    });
  });

  it('refuses a task that is not a JSON string with a 400 that says what to send', async () => {
    const { status, body } = await call(newSession(), 'run', { task: 'not like this' });
    expect(status).toBe(400);
    expect(body.message).toContain('run takes the task as a JSON string body');
    expect(body.message).toContain('not a JSON object');
  });

  it('refuses an answer without a request id or with an unknown decision with a 400 that says what to send', async () => {
    const sessionId = newSession();
    const missing = await call(sessionId, 'answer', { decision: 'allow-once' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('"requestId"');
    const unknown = await call(sessionId, 'answer', { requestId: 'approval-1', decision: 'maybe' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('"decision" must be one of allow-once, allow-session, deny, not "maybe"');
  });

  it('refuses an answer for a request nothing waits on with a 404 naming it', async () => {
    const sessionId = newSession();
    const { status, body } = await call(sessionId, 'answer', { requestId: 'approval-9', decision: 'allow-once' });
    expect(status).toBe(404);
    expect(body.message).toContain(`No approval request or question "approval-9" is waiting in session ${sessionId}`);
  });

  it('completes a run across a restart of the Restate server itself, its data directory kept', async () => {
    await refillPool();
    const file = join(directory, 'lines.txt');
    const sessionId = newSession();
    const script = appendFiveLines(file);
    let restarted: Promise<void> | undefined;
    let inFlight = '';
    control.handlers = {
      model: async (request) => {
        if (request.sessionId === sessionId && toolResultsSinceInput(request.messages) === 2 && !restarted) {
          inFlight = request.key;
          restarted = server.restart();
          await restarted;
        }
        return script(request);
      },
    };
    const idempotent = async () => {
      const response = await fetch(`${server.ingressUrl}/assistant/${sessionId}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `restart-${sessionId}` },
        body: JSON.stringify('Append five lines.'),
      });
      return { status: response.status, body: await response.json() };
    };
    // The call's connection dies with the server; the same idempotency key attaches to the same run after.
    const first = await idempotent().catch(() => undefined);
    expect(restarted).toBeDefined();
    await restarted;
    const { status, body } = first ?? (await idempotent());
    expect(status).toBe(200);
    expect(body).toMatchObject({ exit: 'task_completion', payload: { result: 'appended 5 lines' } });
    expect(linesOf(file)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    // The model call answered while the server was down is the one step asked again.
    expect(control.repeatedSteps((id) => id === sessionId, [inFlight])).toEqual([]);
  });

  it('runs 200 sessions at once across 3 workers: all complete, no cross-talk, each session’s runs in order', async () => {
    await refillPool(3);
    const ids = Array.from({ length: 200 }, (_, index) => `crowd-${index}`);
    const crossTalk: string[] = [];
    const textOf = (message: { content: unknown }) =>
      (message.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
    control.handlers = {
      model: (request) => {
        const inputs = request.messages.filter((message) => message.role === 'user').map(textOf);
        if (!inputs.every((input) => input.endsWith(` of ${request.sessionId}`))) crossTalk.push(request.sessionId);
        const current = inputs.at(-1) as string;
        if (toolResultsSinceInput(request.messages) === 0) {
          return toolCallReply('call_1', 'append_line', {
            file: join(directory, `${request.sessionId}.txt`),
            line: current,
          });
        }
        return toolCallReply('call_done', 'task_completion', { result: current });
      },
    };
    const send = async (sessionId: string, task: string): Promise<string> => {
      const response = await fetch(`${server.ingressUrl}/assistant/${sessionId}/run/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(task),
      });
      return ((await response.json()) as { invocationId: string }).invocationId;
    };
    const attach = async (invocationId: string) =>
      (await (await fetch(`${server.ingressUrl}/restate/invocation/${invocationId}/attach`)).json()) as {
        exit: string;
        payload: { result: string };
      };
    // Each session's second run is sent once its first is queued: Restate runs them in that order.
    const invocations = await Promise.all(
      ids.map(async (id) => [await send(id, `run 1 of ${id}`), await send(id, `run 2 of ${id}`)]),
    );
    const results = await Promise.all(invocations.map((pair) => Promise.all(pair.map(attach))));
    results.forEach((pair, index) => {
      const id = ids[index] as string;
      expect(pair.map((result) => [result.exit, result.payload.result])).toEqual([
        ['task_completion', `run 1 of ${id}`],
        ['task_completion', `run 2 of ${id}`],
      ]);
    });
    expect(crossTalk).toEqual([]);
    for (const id of ids) expect(linesOf(join(directory, `${id}.txt`))).toEqual([`run 1 of ${id}`, `run 2 of ${id}`]);
    const workers = new Set(control.modelRequests.filter((r) => r.sessionId.startsWith('crowd-')).map((r) => r.worker));
    expect(workers.size).toBe(3);
    expect(control.repeatedSteps((id) => id.startsWith('crowd-'))).toEqual([]);
  }, 120_000);

  describe('approvals', () => {
    beforeEach(() => refillPool());

    /** The approval requests the session waits on, once the run has written them to its state. */
    async function pendingApprovals(sessionId: string): Promise<{ requestId: string; name: string }[]> {
      await control.waitFor(() =>
        control.events.find((record) => record.sessionId === sessionId && record.event.type === 'approval-requested'),
      );
      let pending: { requestId: string; name: string }[] = [];
      for (let attempt = 0; attempt < 100 && pending.length === 0; attempt++) {
        pending = (await call(sessionId, 'state', null)).body.pendingApprovals;
      }
      return pending;
    }

    it('keeps an allow-session grant in the object state: the next run does not ask again', async () => {
      const file = join(directory, 'granted.txt');
      const sessionId = `ask-${newSession()}`;
      control.handlers = {
        model: (request) =>
          toolResultsSinceInput(request.messages) === 0
            ? toolCallReply('call_1', 'append_line', { file, line: `line ${request.messages.length}` })
            : toolCallReply('call_done', 'task_completion', { result: 'done' }),
      };
      const first = call(sessionId, 'run', 'Append a line.');
      const [request] = await pendingApprovals(sessionId);
      expect(
        await call(sessionId, 'answer', { requestId: request?.requestId, decision: 'allow-session' }),
      ).toMatchObject({
        status: 200,
        body: { kind: 'approval' },
      });
      expect((await first).body).toMatchObject({ exit: 'task_completion' });
      const second = await call(sessionId, 'run', 'Append another line.');
      expect(second.body).toMatchObject({ exit: 'task_completion' });
      const asked = control.events.filter(
        (record) => record.sessionId === sessionId && record.event.type === 'approval-requested',
      );
      expect(asked).toHaveLength(1);
      expect(linesOf(file)).toHaveLength(2);
    });

    it('runs a session that has grants with an agent made without an approval policy', async () => {
      const file = join(directory, 'no-policy.txt');
      const sessionId = `ask-${newSession()}`;
      control.handlers = {
        model: (request) =>
          toolResultsSinceInput(request.messages) === 0
            ? toolCallReply('call_1', 'append_line', { file, line: `line ${request.messages.length}` })
            : toolCallReply('call_done', 'task_completion', { result: 'done' }),
      };
      const first = call(sessionId, 'run', 'Append a line.');
      const [request] = await pendingApprovals(sessionId);
      await call(sessionId, 'answer', { requestId: request?.requestId, decision: 'allow-session' });
      expect((await first).body).toMatchObject({ exit: 'task_completion' });
      // The app now makes its agents without an approval policy: the session's grants must not stop it.
      await Promise.all([...pool.workers].map((worker) => worker.kill()));
      const unguarded = await startWorker(`no-approval-${sessionId}`, { NO_APPROVAL: '1' });
      try {
        expect((await call(sessionId, 'run', 'Append another line.')).body).toMatchObject({ exit: 'task_completion' });
      } finally {
        await unguarded.kill();
      }
      expect(linesOf(file)).toHaveLength(2);
    });

    it('takes a decision through Restate’s own awakeable API, with no handler of ours involved', async () => {
      const file = join(directory, 'by-awakeable.txt');
      const sessionId = `ask-${newSession()}`;
      control.handlers = {
        model: (request) =>
          toolResultsSinceInput(request.messages) === 0
            ? toolCallReply('call_1', 'append_line', { file, line: 'allowed by awakeable' })
            : toolCallReply('call_done', 'task_completion', { result: 'done' }),
      };
      const run = call(sessionId, 'run', 'Append a line.');
      await pendingApprovals(sessionId);
      const [pending] = (await call(sessionId, 'state', null)).body.pendingApprovals;
      const resolved = await fetch(`${server.ingressUrl}/restate/awakeables/${pending.awakeableId}/resolve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'allow-once' }),
      });
      expect(resolved.status).toBeLessThan(300);
      expect((await run).body).toMatchObject({ exit: 'task_completion' });
      expect(linesOf(file)).toEqual(['allowed by awakeable']);
    });

    it('cancel ends a run suspended on an approval with a cancelled result, the call not run', async () => {
      const file = join(directory, 'cancelled.txt');
      const sessionId = `ask-${newSession()}`;
      control.handlers = { model: () => toolCallReply('call_1', 'append_line', { file, line: 'never' }) };
      const run = call(sessionId, 'run', 'Append a line.');
      await pendingApprovals(sessionId);
      expect((await call(sessionId, 'cancel', null)).body).toEqual({ cancelled: true });
      const { status, body } = await run;
      expect(status).toBe(200);
      expect(body).toMatchObject({ exit: 'cancelled', error: { code: 'cancelled' } });
      expect(existsSync(file)).toBe(false);
      expect((await call(sessionId, 'state', null)).body).toMatchObject({ running: false, pendingApprovals: [] });
    });
  });

  describe('a tool that samples (an MCP server asking for a completion)', () => {
    beforeEach(() => refillPool());

    /** The scripted model: a completion for a sampling request, else summarize once, then task_completion. */
    function summarizeOnce(request: ModelRequestRecord): ModelReply {
      const first = request.messages[0]?.content[0];
      if (first?.type === 'text' && first.text.startsWith('Summarise:')) {
        return {
          chunks: [
            { type: 'text-delta', text: 'It rains.' },
            { type: 'usage', usage: { inputTokens: 7, outputTokens: 3 } },
            { type: 'finish', reason: 'stop' },
          ],
        };
      }
      return toolResultsSinceInput(request.messages) === 0
        ? toolCallReply('call_1', 'summarize', { text: 'the forecast' })
        : toolCallReply('call_done', 'task_completion', { result: 'summarised' });
    }

    const summarizeResults = (sessionId: string) =>
      control.events.flatMap((record) =>
        record.sessionId === sessionId && record.event.type === 'tool-result' && record.event.name === 'summarize'
          ? [record.event.content]
          : [],
      );

    it('samples inside the durable tool call when a rule allows it, the completion recorded with the call', async () => {
      const sessionId = `sample-allowed-${newSession()}`;
      control.handlers = { model: summarizeOnce };
      const { body } = await call(sessionId, 'run', 'Summarise the forecast.');
      expect(body).toMatchObject({ exit: 'task_completion', payload: { result: 'summarised' } });
      expect(summarizeResults(sessionId)).toEqual(['summary: It rains.']);
      // The agent's two calls and the completion: the sampling tokens count in the run's usage.
      expect(body.usage).toMatchObject({ inputTokens: 27, outputTokens: 13 });
    }, 30_000);

    it('refuses a sampling request the policy would ask about with sampling_approval_unsupported, and the run goes on', async () => {
      const sessionId = `sample-${newSession()}`;
      control.handlers = { model: summarizeOnce };
      const { body } = await call(sessionId, 'run', 'Summarise the forecast.');
      expect(body).toMatchObject({ exit: 'task_completion' });
      const [result] = summarizeResults(sessionId);
      expect(result).toMatch(/^refused \[sampling_approval_unsupported\]: summarize asked for a model completion/);
      expect(result).toContain("{ tool: 'sampling:summarize', action: 'allow' }");
      expect((await call(sessionId, 'state', null)).body.pendingApprovals).toEqual([]);
    }, 30_000);
  });

  it('keeps the conversation in the app’s SessionStore when it names one, and leaves it unlocked between runs', async () => {
    await refillPool();
    const file = join(directory, 'stored.txt');
    const sessionId = newSession();
    control.handlers = {
      model: (request) =>
        toolResultsSinceInput(request.messages) === 0
          ? toolCallReply('call_1', 'append_line', { file, line: `after ${request.messages.length} messages` })
          : toolCallReply('call_done', 'task_completion', { result: 'stored' }),
    };
    expect((await call(sessionId, 'run', 'First task.', 'stored')).body).toMatchObject({ exit: 'task_completion' });
    expect((await call(sessionId, 'run', 'Second task.', 'stored')).body).toMatchObject({ exit: 'task_completion' });
    const store = new JsonlSessionStore({ directory: storeDirectory });
    try {
      // Open takes the store's write lock: it is free, as the runs only held it while saving.
      const saved = await store.open(sessionId);
      const inputs = saved.messages.filter((message) => message.role === 'user');
      expect(inputs.map((message) => message.content)).toEqual([
        [{ type: 'text', text: 'First task.' }],
        [{ type: 'text', text: 'Second task.' }],
      ]);
      expect(saved.info.turnCount).toBe(2);
      expect((await call(sessionId, 'state', null, 'stored')).body.messages).toEqual(saved.messages);
    } finally {
      await store.close();
    }
    // The second run's model saw the first run's conversation, read back from the store.
    expect(linesOf(file)).toEqual(['after 1 messages', 'after 6 messages']);
    expect(await call(sessionId, 'state', null)).toMatchObject({ body: { messages: [] } });
  });
});
